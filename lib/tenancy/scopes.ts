import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { effectiveRole } from "@/lib/permissions/guards";
import { type OrgRoleName, rolesAllowed } from "@/lib/permissions/table";

/**
 * Prisma `where` fragments that encode what a caller may reach. Domain queries put these
 * inside their own `where` (reads and writes alike), so a tenant check cannot be forgotten
 * and another tenant's object is simply not found.
 */

const ALL_ROLES: readonly OrgRoleName[] = ["owner", "admin", "member"];

/**
 * The membership roles with which this caller manages an organization: those whose role, as the
 * caller acts with it (a key's `maxRole` lowers it), the permission table lets change the organization.
 */
function managingRoles(caller: Caller): OrgRoleName[] {
  const managers = rolesAllowed("org.update");
  return ALL_ROLES.filter((role) => managers.includes(effectiveRole(caller, role)!));
}

/** Organizations the caller administers (owner or admin; an API key only its own org). */
export function orgsManagedBy(caller: Caller): Prisma.OrganizationWhereInput {
  if (caller.kind === "instance") return {};
  const membership: Prisma.OrganizationWhereInput = {
    members: { some: { userId: caller.userId, role: { in: managingRoles(caller) } } },
  };
  return caller.apiKey ? { AND: [membership, { id: caller.apiKey.orgId }] } : membership;
}

/** Organizations the caller belongs to in any role. */
export function orgsVisibleTo(caller: Caller): Prisma.OrganizationWhereInput {
  if (caller.kind === "instance") return {};
  const membership: Prisma.OrganizationWhereInput = { members: { some: { userId: caller.userId } } };
  return caller.apiKey ? { AND: [membership, { id: caller.apiKey.orgId }] } : membership;
}

/** Workspaces the caller administers: those of the orgs it administers (an API key: its own). */
export function workspacesManagedBy(caller: Caller): Prisma.WorkspaceWhereInput {
  if (caller.kind === "instance") return {};
  const managed: Prisma.WorkspaceWhereInput = { org: orgsManagedBy(caller) };
  return caller.apiKey ? { AND: [managed, { id: caller.apiKey.workspaceId }] } : managed;
}

/**
 * MCP servers the caller administers: those of the workspaces it administers, and for a key
 * pinned to one server only that one — a key "acts as its user in its workspace (and, if
 * pinned, on one MCP server only)", so the other servers of its workspace are not found.
 */
export function serversManagedBy(caller: Caller): Prisma.McpServerWhereInput {
  const pin = pinnedServerOf(caller);
  return pin ? { AND: [{ workspace: workspacesManagedBy(caller) }, { id: pin }] } : { workspace: workspacesManagedBy(caller) };
}

/** The one MCP server an API key is pinned to, or null. */
export function pinnedServerOf(caller: Caller): string | null {
  return caller.kind === "user" ? (caller.apiKey?.serverId ?? null) : null;
}

/** Workspaces the caller works in: a workspace member, or an admin of its org. */
export function workspacesJoinedBy(caller: Caller): Prisma.WorkspaceWhereInput {
  if (caller.kind === "instance") return {};
  const joined: Prisma.WorkspaceWhereInput = {
    OR: [{ members: { some: { userId: caller.userId } } }, { org: orgsManagedBy({ ...caller, apiKey: null }) }],
  };
  return caller.apiKey ? { AND: [joined, { id: caller.apiKey.workspaceId }] } : joined;
}

/** The user id that "own" objects (files, API keys) belong to, or null for the instance. */
export function callerUserId(caller: Caller): string | null {
  return caller.kind === "user" ? caller.userId : null;
}

/**
 * The one workspace whose rows an org-wide read (usage, audit log) may show this caller: an
 * API key's own, else null (every workspace of the org). A key "acts as its user in its
 * workspace", and that is how org endpoints treat keys already: the org's workspace list shows
 * a key only its workspace, while org-level objects (connectors, roles, members) stay whole. So
 * an org-wide read answers a key too — not a 404 — narrowed to its workspace's rows.
 */
export function keyWorkspaceOf(caller: Caller): string | null {
  return caller.kind === "user" && caller.apiKey ? caller.apiKey.workspaceId : null;
}
