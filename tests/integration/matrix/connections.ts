import { db } from "@/lib/db/client";
import { connectionEndpoints as e } from "@/lib/connectors/upstream-auth/endpoints";
import { makeConnector, type Tenant } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget } from "@/tests/integration/matrix/types";

/** Cross-tenant cases for connectors' upstream connections (issue 24 point 3). */

const MISSING = "id_missing_000";

const orgConnections = (t: Tenant) => () => db().upstreamConnection.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } });

/** An OAuth per-person connector made directly in the database (no upstream is contacted). */
async function oauthConnector(t: Tenant): Promise<string> {
  const connector = await makeConnector(t, { type: "mcp", auth: { type: "oauth", connection: "per_user" } });
  return connector.id;
}

/** The owner's connection of such a connector; its sealed tokens are never opened by these cases. */
async function ownersConnection(t: Tenant): Promise<string> {
  const connectorId = await oauthConnector(t);
  const row = await db().upstreamConnection.create({
    data: { orgId: t.org.id, connectorId, userId: t.owner.user.id, madeById: t.owner.user.id, connection: "per_user", slot: t.owner.user.id, tokens: "not-a-sealed-token" },
  });
  return row.id;
}

const onConnector = (body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/connectors/${await oauthConnector(t)}/connections`,
  missingPath: `/api/v1/connectors/${MISSING}/connections`,
  body,
  snapshot: orgConnections(t),
});

const onConnection = (prefix: string) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1${prefix}/${await ownersConnection(t)}`,
  missingPath: `/api/v1${prefix}/${MISSING}`,
  snapshot: orgConnections(t),
});

export const connectionCases: MatrixCase[] = [
  { endpoint: e.startConnection, setup: onConnector({}), outsiders: ["otherOrg"] },
  { endpoint: e.listConnectorConnections, setup: onConnector(), outsiders: ["otherOrg", "member"] },
  { endpoint: e.deleteConnection, setup: onConnection("/connections"), outsiders: ["otherOrg", "member"] },
  // Another person's connection is not one's own: "not found", like a missing one.
  { endpoint: e.deleteMyConnection, setup: onConnection("/me/connections"), outsiders: ["otherOrg", "member"] },
];
