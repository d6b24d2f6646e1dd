import type { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError } from "@/lib/errors";

type Tx = Prisma.TransactionClient;

/**
 * Replaces a server's connector assignment, keeping the given order in `position`. A connector
 * may be assigned only to servers of its own organization: the organization is part of the
 * query, so an unknown id and another organization's id fail alike (422 on `connectorIds`).
 * The tool overrides of a connector taken off the server are deleted with its assignment.
 */
export async function replaceServerConnectors(tx: Tx, server: { id: string; orgId: string }, connectorIds: string[]): Promise<void> {
  const found = await tx.connector.findMany({
    where: { id: { in: connectorIds }, orgId: server.orgId },
    select: { id: true },
  });
  if (found.length !== new Set(connectorIds).size) {
    throw new ValidationError([{ path: "connectorIds", message: "Every connector must exist in the server's organization." }]);
  }
  await tx.mcpServerConnector.deleteMany({ where: { serverId: server.id, orgId: server.orgId } });
  // The server's curation of a connector it no longer has goes with it: an override may only
  // name an assigned connector (lib/servers/tool-overrides.ts), so a kept one could not be sent back.
  await tx.toolOverride.deleteMany({ where: { serverId: server.id, orgId: server.orgId, connectorId: { notIn: connectorIds } } });
  if (connectorIds.length === 0) return;
  await tx.mcpServerConnector.createMany({
    data: connectorIds.map((connectorId, position) => ({ orgId: server.orgId, serverId: server.id, connectorId, position })),
  });
}
