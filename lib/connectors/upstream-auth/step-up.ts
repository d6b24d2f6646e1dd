import { computeScopeUnion, extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { logger } from "@/lib/log";
import { openConnection, sealConnection } from "@/lib/connectors/upstream-auth/connection-store";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ConnectionRef } from "@/lib/connectors/upstream-auth/tokens";

/**
 * Step-up (issue 24 point 2): the upstream answered 403 `insufficient_scope` naming the scope
 * it needs. The token cannot be widened without the person, so the connection keeps the scope
 * asked (sealed with its tokens) and the next connect asks for the union of what it had and what
 * the upstream wants. The connection stays `connected`, `per_user` and `shared` alike: its token
 * still serves every call its scopes allow, and only the refused call answers with the connect
 * link (one tool needing more must not cut a person, or everyone on a shared account, off).
 * One path for both connector types: an `mcp` connector's SDK transport raises
 * InsufficientScopeError (send-upstream.ts), an `http` connector's answer is read here (stepUpAsked).
 * Answers what the next connect asks (null: the connection is gone).
 */
export async function markStepUp(ref: ConnectionRef, requiredScope: string | undefined): Promise<{ shared: boolean; nextScope?: string } | null> {
  // Under the row's lock, as a refresh is (tokens.ts): a rotated refresh token written meanwhile must not be overwritten with the old one.
  const marked = await db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM upstream_connections WHERE id = ${ref.id} AND org_id = ${ref.orgId} FOR UPDATE`;
    if (locked.length === 0) return null;
    const row = await tx.upstreamConnection.findFirstOrThrow({
      where: { id: ref.id, orgId: ref.orgId },
      select: { tokens: true, connectorId: true, userId: true, scopes: true, connection: true, connector: { select: { name: true } } },
    });
    const sealed = openConnection(row.tokens);
    // No scope named (it is optional): the next connect asks again for what the connection had, and the person grants more there.
    const had = scopesText(row.scopes);
    const stepUpScope = computeScopeUnion(sealed.stepUpScope, requiredScope || had || undefined);
    await tx.upstreamConnection.update({ where: { id: ref.id, orgId: ref.orgId }, data: { tokens: sealConnection({ ...sealed, ...(stepUpScope ? { stepUpScope } : {}) }) } });
    return { row, nextScope: computeScopeUnion(had || undefined, stepUpScope) };
  });
  if (!marked) return null;
  const { row, nextScope } = marked;
  const shared = row.connection === "shared";
  logger.info({ connectionId: ref.id, connectorId: row.connectorId, shared }, "upstream asked for a wider scope: kept for the connection's next connect");
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

const scopesText = (scopes: Prisma.JsonValue): string => (Array.isArray(scopes) ? (scopes as string[]).join(" ") : "");

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
  return row ? pendingStepUp(row) : undefined;
}

/**
 * A connection's pending step-up: the scopes its next connect asks for (what it has plus what
 * the upstream asked), or undefined when the upstream asked for nothing more.
 */
export function pendingStepUp(row: { tokens: string; scopes: Prisma.JsonValue }): string | undefined {
  let asked: string | undefined;
  try {
    asked = openConnection(row.tokens).stepUpScope;
  } catch {
    return undefined; // unreadable under another SECRET_KEY: a fresh connection
  }
  if (!asked) return undefined;
  return computeScopeUnion(scopesText(row.scopes) || undefined, asked);
}
