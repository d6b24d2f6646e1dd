import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { lockRow } from "@/lib/db/lock-row";

/**
 * Connectors belong to an organization and only its owners/admins (and the instance
 * credential) manage them. These fragments put that rule inside each query's `where`.
 */

/** `where` for one connector the caller manages. */
export function managedConnectorWhere(caller: Caller, connectorId: string): Prisma.ConnectorWhereInput {
  return { id: connectorId, org: orgsManagedBy(caller) };
}

type ConnectorClient = Pick<Prisma.TransactionClient, "connector">;

/** The connector's id, org and type, or NotFoundError when it is missing or not managed. */
export async function findManagedConnector(
  client: ConnectorClient,
  caller: Caller,
  connectorId: string,
): Promise<{ id: string; orgId: string; type: "http" | "mcp"; name: string }> {
  const connector = await client.connector.findFirst({
    where: managedConnectorWhere(caller, connectorId),
    select: { id: true, orgId: true, type: true, name: true },
  });
  if (!connector) throw new NotFoundError("connector");
  return connector;
}

/**
 * Like findManagedConnector, and holds the connector's row lock until the transaction ends:
 * writes of one connector (its tools, its graph) wait for each other instead of interleaving.
 */
export async function lockManagedConnector(
  tx: ConnectorClient & Pick<Prisma.TransactionClient, "$queryRaw">,
  caller: Caller,
  connectorId: string,
): Promise<{ id: string; orgId: string; type: "http" | "mcp"; name: string }> {
  const connector = await findManagedConnector(tx, caller, connectorId);
  if (!(await lockRow(tx, "connectors", connector.id, connector.orgId))) throw new NotFoundError("connector");
  return connector;
}

/** NotFoundError unless the caller manages the organization. */
export async function assertOrgManaged(client: Pick<Prisma.TransactionClient, "organization">, caller: Caller, orgId: string): Promise<void> {
  const org = await client.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
}
