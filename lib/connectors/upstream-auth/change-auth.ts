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

/** The origin of an upstream URL, or null for none or an unreadable one. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A connector's upstream URL (an mcp `url`, an http `baseUrl`) moving to another origin: a
 * token was granted for the old host and is never sent to the new one (issue 24: "sent only to
 * the connector's own origin"), so every connection turns `needs_reconnect`, and the client
 * registrations made with the old host's authorization server are dropped. The same URL on
 * its own origin (a path change) keeps them.
 */
export async function changeConnectorOrigin(
  tx: Prisma.TransactionClient,
  connector: { id: string; orgId: string },
  before: string | null | undefined,
  after: string | null | undefined,
): Promise<Prisma.ConnectorUpdateManyMutationInput> {
  if (after === undefined || originOf(before) === originOf(after)) return {};
  await tx.upstreamConnection.updateMany({ where: { connectorId: connector.id, orgId: connector.orgId }, data: { status: "needs_reconnect" } });
  return { oauthClientState: null };
}
