import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { serversReachableBy } from "@/lib/mcp/visibility/load-snapshot";
import { endpointForResourcePath, type ResourceEndpoint } from "@/lib/oauth/protected-resource";
import { workspacesJoinedBy } from "@/lib/tenancy/scopes";

/**
 * What the consent page offers a user for a client's authorization request, and the choice it
 * posts back, checked again: for `/mcp/<serverId>` that server, only when the user can see it
 * (another organization's server, or one they cannot reach, is the same "not found"); for `/mcp`
 * the servers of one of the workspaces they work in (which workspace, when they have several).
 */

export interface OfferedServer {
  id: string;
  name: string;
}

export interface OfferedWorkspace {
  id: string;
  orgId: string;
  name: string;
  orgName: string;
  servers: OfferedServer[];
}

export type ConsentOffer =
  | { kind: "server"; server: OfferedServer; workspace: Omit<OfferedWorkspace, "servers"> }
  | { kind: "shared"; workspaces: OfferedWorkspace[] };

/** What a grant lets the client reach (stored with it, lib/oauth/oauth-grants.ts). */
export interface GrantScope {
  orgId: string;
  workspaceId: string;
  serverId: string | null;
  serverIds: string[];
}

/** The MCP endpoint a resource URL of this issuer names, or null. */
export function endpointOfResource(resource: string | null, origin: string): ResourceEndpoint | null {
  if (!resource?.startsWith(`${origin}/`)) return null;
  return endpointForResourcePath(resource.slice(origin.length));
}

const userCaller = (userId: string): Caller => ({ kind: "user", userId, apiKey: null });

const serverSelect = { id: true, name: true, workspace: { select: { id: true, orgId: true, name: true, org: { select: { name: true } } } } } as const;

/** The offer for `resource`, or null: not an MCP endpoint of this instance, or a server the user cannot see. */
export async function consentOffer(userId: string, resource: string | null, issuer: string): Promise<ConsentOffer | null> {
  const endpoint = endpointOfResource(resource, issuer);
  if (!endpoint) return null;
  const caller = userCaller(userId);
  if (endpoint.kind === "server") {
    const server = await db().mcpServer.findFirst({ where: { id: endpoint.serverId, AND: [serversReachableBy(caller)] }, select: serverSelect });
    // Reachable and with a role that lets the user see it (as the MCP endpoint itself decides).
    if (!server || !(await resolveCallerView(caller, server.id))) return null;
    const { workspace } = server;
    return { kind: "server", server: { id: server.id, name: server.name }, workspace: { id: workspace.id, orgId: workspace.orgId, name: workspace.name, orgName: workspace.org.name } };
  }
  const workspaces = await db().workspace.findMany({
    where: workspacesJoinedBy(caller),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, orgId: true, name: true, org: { select: { name: true } }, servers: { where: serversReachableBy(caller), orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true } } },
  });
  return { kind: "shared", workspaces: workspaces.map((w) => ({ id: w.id, orgId: w.orgId, name: w.name, orgName: w.org.name, servers: w.servers })) };
}

/**
 * The scope of the grant the posted form asks for, or null when it is not one the offer
 * allows: a workspace not offered, a server outside it, or no server at all.
 */
export function chosenScope(offer: ConsentOffer, form: URLSearchParams): GrantScope | null {
  if (offer.kind === "server") return { orgId: offer.workspace.orgId, workspaceId: offer.workspace.id, serverId: offer.server.id, serverIds: [offer.server.id] };
  const workspaceId = form.get("workspace") ?? (offer.workspaces.length === 1 ? offer.workspaces[0].id : null);
  const workspace = offer.workspaces.find((w) => w.id === workspaceId);
  if (!workspace) return null;
  const chosen = new Set(form.getAll("server"));
  const serverIds = workspace.servers.filter((s) => chosen.has(s.id)).map((s) => s.id);
  if (serverIds.length === 0 || serverIds.length !== chosen.size) return null;
  return { orgId: workspace.orgId, workspaceId: workspace.id, serverId: null, serverIds };
}
