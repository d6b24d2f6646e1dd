import type { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError } from "@/lib/errors";
import { asConnectorAuth, authColumns, authFieldErrors, clientFingerprint, type ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-settings";

/**
 * A PATCH of a connector's `auth` (issue 24 point 6): the new columns, and every connection
 * made with another client or other scopes marked `needs_reconnect` (a token granted to the old
 * client or scopes is not what the admin now asks for). Registrations made for the old client
 * are dropped so the next connection registers again.
 */
export async function changeConnectorAuth(
  tx: Prisma.TransactionClient,
  current: { id: string; orgId: string; type: "http" | "mcp"; auth: Prisma.JsonValue; authSecret: string | null },
  input: ConnectorAuthInput,
): Promise<Prisma.ConnectorUpdateManyMutationInput> {
  const previous = asConnectorAuth(current.auth);
  const errors = authFieldErrors(input, current.type, previous.type === input.type && current.authSecret !== null);
  if (errors.length > 0) throw new ValidationError(errors);
  const columns = authColumns(input, current.type, { auth: previous, secret: current.authSecret });
  const changedClient = clientFingerprint(previous) !== clientFingerprint(asConnectorAuth(columns.auth as Prisma.JsonValue)) || (input.type !== "headers" && "clientSecret" in input && input.clientSecret !== undefined);
  if (changedClient) {
    await tx.upstreamConnection.updateMany({ where: { connectorId: current.id, orgId: current.orgId }, data: { status: "needs_reconnect" } });
    return { ...columns, oauthClientState: null };
  }
  return columns;
}
