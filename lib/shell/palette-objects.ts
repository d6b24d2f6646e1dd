import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { serversReachableBy } from "@/lib/mcp/visibility/load-snapshot";

/**
 * The objects the command palette jumps to by name: the connectors and MCP servers of the
 * organizations the person manages (their admin pages), and the servers they can merely use
 * (their entry on "My MCP servers"). Read when the palette first opens, not on every page.
 */

export interface PaletteObject {
  kind: "connector" | "server";
  id: string;
  name: string;
  /** Where it lives, to tell two objects of one name apart. */
  place: string;
  href: string;
}

/** Enough for a palette; a person with more finds the rest through the lists' search. */
const MAX_EACH = 500;

export async function listPaletteObjects(caller: Caller & { kind: "user" }): Promise<PaletteObject[]> {
  const managed = orgsManagedBy(caller);
  const [connectors, servers, usable] = await Promise.all([
    db().connector.findMany({ where: { org: managed }, orderBy: [{ name: "asc" }, { id: "asc" }], take: MAX_EACH, select: { id: true, name: true, orgId: true, org: { select: { name: true } } } }),
    db().mcpServer.findMany({ where: { org: managed }, orderBy: [{ name: "asc" }, { id: "asc" }], take: MAX_EACH, select: { id: true, name: true, workspaceId: true, workspace: { select: { name: true } } } }),
    db().mcpServer.findMany({ where: { AND: [serversReachableBy(caller)], NOT: { org: managed } }, orderBy: [{ name: "asc" }, { id: "asc" }], take: MAX_EACH, select: { id: true, name: true, workspace: { select: { name: true } } } }),
  ]);
  return [
    ...connectors.map((c) => ({ kind: "connector" as const, id: c.id, name: c.name, place: c.org.name, href: `/orgs/${c.orgId}/connectors/${c.id}` })),
    ...servers.map((s) => ({ kind: "server" as const, id: s.id, name: s.name, place: s.workspace.name, href: `/w/${s.workspaceId}/servers/${s.id}` })),
    ...usable.map((s) => ({ kind: "server" as const, id: s.id, name: s.name, place: s.workspace.name, href: `/me/servers#url-${s.id}` })),
  ];
}
