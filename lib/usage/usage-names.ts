import { db } from "@/lib/db/client";

/**
 * Current names of the servers, connectors and users a usage report counts. The aggregate
 * keeps ids only (a rename shows at once); an id whose object is gone reads "(deleted)".
 */

export const DELETED = "(deleted)";
export const INSTANCE_CREDENTIAL = "Instance credential";

export interface UsageNames {
  server(id: string): string;
  connector(id: string): string;
  user(id: string): string;
}

export async function usageNames(orgId: string, ids: { servers: string[]; connectors: string[]; users: string[] }): Promise<UsageNames> {
  const [servers, connectors, users] = await Promise.all([
    db().mcpServer.findMany({ where: { orgId, id: { in: ids.servers } }, select: { id: true, name: true } }),
    db().connector.findMany({ where: { orgId, id: { in: ids.connectors } }, select: { id: true, name: true } }),
    db().user.findMany({ where: { id: { in: ids.users.filter(Boolean) }, orgMemberships: { some: { orgId } } }, select: { id: true, name: true, email: true } }),
  ]);
  const serverNames = new Map(servers.map((s) => [s.id, s.name]));
  const connectorNames = new Map(connectors.map((c) => [c.id, c.name]));
  const userNames = new Map(users.map((u) => [u.id, u.name ? `${u.name} (${u.email})` : u.email]));
  return {
    server: (id) => serverNames.get(id) ?? DELETED,
    connector: (id) => connectorNames.get(id) ?? DELETED,
    user: (id) => (id === "" ? INSTANCE_CREDENTIAL : (userNames.get(id) ?? "(no longer a member)")),
  };
}
