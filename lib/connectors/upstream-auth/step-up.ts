import { computeScopeUnion } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { openConnection, sealConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import type { ConnectionRef } from "@/lib/connectors/upstream-auth/tokens";

/**
 * Step-up (issue 24 point 2): the upstream answered 403 `insufficient_scope` naming the scope
 * it needs. The token cannot be widened without the person, so the connection turns
 * `needs_reconnect` and keeps the scope asked (sealed with its tokens); the person's next
 * connect asks for the union of what it had and what the upstream wants.
 */
export async function markStepUp(ref: ConnectionRef, requiredScope: string | undefined): Promise<void> {
  const row = await db().upstreamConnection.findFirst({ where: { id: ref.id, orgId: ref.orgId }, select: { tokens: true, connectorId: true } });
  if (!row) return;
  const sealed = openConnection(row.tokens);
  const stepUpScope = computeScopeUnion(sealed.stepUpScope, requiredScope);
  await db().upstreamConnection.updateMany({
    where: { id: ref.id, orgId: ref.orgId },
    data: { status: "needs_reconnect", tokens: sealConnection({ ...sealed, ...(stepUpScope ? { stepUpScope } : {}) }) },
  });
  forgetCachedToken(ref.id);
  logger.info({ connectionId: ref.id, connectorId: row.connectorId }, "upstream asked for a wider scope: the connection needs to be made again");
}

/** The scope a new connection of this slot asks beyond the usual choice: what it had plus what the upstream asked, or undefined. */
export async function stepUpScopeOf(where: { orgId: string; connectorId: string; slot: string }): Promise<string | undefined> {
  const row = await db().upstreamConnection.findFirst({ where, select: { tokens: true, scopes: true } });
  if (!row) return undefined;
  let asked: string | undefined;
  try {
    asked = openConnection(row.tokens).stepUpScope;
  } catch {
    return undefined; // unreadable under another SECRET_KEY: a fresh connection
  }
  if (!asked) return undefined;
  const had = Array.isArray(row.scopes) ? (row.scopes as string[]).join(" ") : undefined;
  return computeScopeUnion(had, asked);
}
