import { db } from "@/lib/db/client";
import { asConnectorAuth } from "@/lib/connectors/upstream-auth/auth-settings";
import { reloadConnector } from "@/lib/connectors/reload-connector";
import { roleIn } from "@/lib/permissions/guards";

/**
 * Issue 24 point 5: an OAuth `mcp` connector is created without tools (creating it needs no
 * connection); the first owner or admin who connects discovers them with their own connection,
 * as a reload would. Until then the console says "connect to discover tools".
 */
export async function discoverWithFirstConnection(connectorId: string, orgId: string, userId: string): Promise<void> {
  const connector = await db().connector.findFirst({ where: { id: connectorId, orgId }, select: { type: true, auth: true, _count: { select: { tools: true } } } });
  if (!connector || connector.type !== "mcp" || connector._count.tools > 0 || asConnectorAuth(connector.auth).type !== "oauth") return;
  const caller = { kind: "user" as const, userId, apiKey: null };
  const role = await roleIn(db(), caller, orgId);
  if (role !== "owner" && role !== "admin") return;
  await reloadConnector(caller, connectorId);
}
