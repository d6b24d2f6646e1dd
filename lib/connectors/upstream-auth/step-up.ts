import { computeScopeUnion, extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { logger } from "@/lib/log";
import { openConnection, sealConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import type { ConnectionRef } from "@/lib/connectors/upstream-auth/tokens";

/**
 * Step-up (issue 24 point 2): the upstream answered 403 `insufficient_scope` naming the scope
 * it needs. The token cannot be widened without the person, so a person's connection turns
 * `needs_reconnect` and keeps the scope asked (sealed with its tokens); the person's next
 * connect asks for the union of what it had and what the upstream wants. A `shared` connection
 * stays `connected` and only keeps the scope asked: one member's call must not cut the connector
 * off for everyone, and only an owner or admin can connect it again. One path for both
 * connector types: an `mcp` connector's SDK transport raises InsufficientScopeError
 * (send-upstream.ts), an `http` connector's answer is read here (stepUpAsked).
 * Answers what the next connect asks (null: the connection is gone).
 */
export async function markStepUp(ref: ConnectionRef, requiredScope: string | undefined): Promise<{ shared: boolean; nextScope?: string } | null> {
  const row = await db().upstreamConnection.findFirst({
    where: { id: ref.id, orgId: ref.orgId },
    select: { tokens: true, connectorId: true, userId: true, scopes: true, connection: true, connector: { select: { name: true } } },
  });
  if (!row) return null;
  const shared = row.connection === "shared";
  const sealed = openConnection(row.tokens);
  // No scope named (it is optional): the next connect asks again for what the connection had, and the person grants more there.
  const had = Array.isArray(row.scopes) ? (row.scopes as string[]).join(" ") : "";
  const stepUpScope = computeScopeUnion(sealed.stepUpScope, requiredScope || had || undefined);
  const nextScope = computeScopeUnion(had || undefined, stepUpScope);
  await db().upstreamConnection.updateMany({
    where: { id: ref.id, orgId: ref.orgId },
    data: { ...(shared ? {} : { status: "needs_reconnect" }), tokens: sealConnection({ ...sealed, ...(stepUpScope ? { stepUpScope } : {}) }) },
  });
  if (!shared) forgetCachedToken(ref.id);
  logger.info({ connectionId: ref.id, connectorId: row.connectorId, shared }, "upstream asked for a wider scope: the connection needs to be made again");
  // Like connection.refresh_refused: the connection's person acts (the instance for a shared one). The scope asked
  // and what the next connect will ask (stepUpScopeOf), never a token.
  await recordAuditEvent(row.userId ? { kind: "user", userId: row.userId, apiKey: null } : { kind: "instance" }, {
    orgId: ref.orgId,
    action: "connection.step_up",
    targetType: "connector",
    targetId: row.connectorId,
    data: { connector: row.connector.name, connectionId: ref.id, scope: requiredScope?.slice(0, 500) ?? null, nextScope: nextScope?.slice(0, 500) ?? null },
  }).catch(() => undefined);
  return { shared, ...(nextScope ? { nextScope } : {}) };
}

/**
 * An `http` API's answer read as a step-up: 403 with a Bearer challenge `error="insufficient_scope"`
 * (the scope parameter optional). Any other 403 is an ordinary upstream error: null.
 */
export function stepUpAsked(status: number, wwwAuthenticate: string | undefined): { scope?: string } | null {
  if (status !== 403 || !wwwAuthenticate) return null;
  const { error, scope } = extractWWWAuthenticateParams(new Response(null, { status, headers: { "www-authenticate": wwwAuthenticate } }));
  return error === "insufficient_scope" ? (scope ? { scope } : {}) : null;
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
