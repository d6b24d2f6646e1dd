import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Caller } from "@/lib/auth/caller";
import { isAppError } from "@/lib/errors";
import { getCurrentUser } from "@/lib/auth/current-user";
import { publicBaseUrl } from "@/lib/servers/server-url";
import { listOrgsForOverview, type OverviewOrg, type OverviewWorkspace } from "@/lib/shell/overview";
import { rolesAllowed } from "@/lib/permissions/table";

/** Whether a person of this organization role administers it: the permission table's managers. */
const administers = (role: OverviewOrg["role"]): boolean => rolesAllowed("org.update").includes(role);

/**
 * Where an admin page is: the signed-in user, the organization (URL `/orgs/<orgId>/…`) or the
 * workspace (URL `/w/<workspaceId>/…`) it shows, and the user's role there. Memoised per
 * request, so the layout, the page and the side navigation share one lookup.
 */

export const LAST_ORG_COOKIE = "sb_org";
export const LAST_WORKSPACE_COOKIE = "sb_ws";

export const loadViewer = cache(async () => {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  const orgs = await listOrgsForOverview(user.id);
  const caller: Caller = { kind: "user", userId: user.id, apiKey: null };
  return { user, orgs, caller };
});

export interface OrgContext {
  org: OverviewOrg;
  isAdmin: boolean;
  caller: Caller;
  userId: string;
}

/** The organization of the URL, or the 404 page when the user is not in it. */
export async function requireOrg(orgId: string): Promise<OrgContext> {
  const { user, orgs, caller } = await loadViewer();
  const org = orgs.find((o) => o.id === orgId);
  if (!org) notFound();
  return { org, isAdmin: administers(org.role), caller, userId: user.id };
}

/**
 * Like requireOrg, but only for its owners and admins: a member of the organization gets the
 * "you don't have access" page (403); everyone else still the 404 page.
 */
export async function requireOrgAdmin(orgId: string): Promise<OrgContext> {
  const context = await requireOrg(orgId);
  if (!context.isAdmin) forbidden();
  return context;
}

export interface WorkspaceContext extends OrgContext {
  workspace: OverviewWorkspace;
}

/**
 * The workspace of the URL with its organization, or the 404 page when the user cannot open it;
 * `admin`: a member who can open the workspace gets the "you don't have access" page (403).
 */
export async function requireWorkspace(workspaceId: string, opts: { admin?: boolean } = {}): Promise<WorkspaceContext> {
  const { user, orgs, caller } = await loadViewer();
  for (const org of orgs) {
    const workspace = org.workspaces.find((w) => w.id === workspaceId);
    if (!workspace) continue;
    const isAdmin = administers(org.role);
    if (opts.admin && !isAdmin) forbidden();
    return { org, workspace, isAdmin, caller, userId: user.id };
  }
  notFound();
}

/**
 * Where a short link such as /connectors goes: the organization and workspace used last
 * (cookies the side navigation writes), else the first ones the user has.
 */
export async function currentPlace(): Promise<{ org: OverviewOrg | null; workspace: OverviewWorkspace | null }> {
  const { orgs } = await loadViewer();
  const store = await cookies();
  const lastWorkspace = store.get(LAST_WORKSPACE_COOKIE)?.value;
  const lastOrg = store.get(LAST_ORG_COOKIE)?.value;
  for (const org of orgs) {
    const workspace = org.workspaces.find((w) => w.id === lastWorkspace);
    if (workspace) return { org, workspace };
  }
  const org = orgs.find((o) => o.id === lastOrg) ?? orgs[0] ?? null;
  return { org, workspace: org?.workspaces[0] ?? null };
}

/** The public origin MCP clients use (PUBLIC_URL, else the origin this page was requested on). */
export async function requestBaseUrl(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return publicBaseUrl(`${proto}://${host}`);
}

/** The `?cursor=` of a list page. */
export function cursorParam(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.length <= 200 ? v : undefined;
}

/** The value of a lib read, or the 404 page when the lib says "not found" (missing or not yours). */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  }
}
