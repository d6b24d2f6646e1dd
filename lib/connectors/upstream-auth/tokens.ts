import { refreshAuthorization } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { logger } from "@/lib/log";
import { expiryOf, openConnection, sealConnection, type SealedConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import { describeOAuthFailure, isGrantRefused } from "@/lib/connectors/upstream-auth/oauth-errors";
import { cachedToken, forgetCachedToken, rememberToken } from "@/lib/connectors/upstream-auth/token-cache";
import { processState } from "@/lib/process-state";

/**
 * A connection's access token at call time, refreshed once when it has expired or the
 * upstream answered 401 (issue 24 point 4). A refresh happens under the connection row's lock
 * (`SELECT … FOR UPDATE`), so concurrent calls — on this instance or any other — share one:
 * whoever waited finds the new token in the row and uses it. Refresh-token rotation is kept
 * (a new refresh token replaces the old one; none given keeps the old). A refused refresh
 * marks the connection `needs_reconnect`.
 */

/** The person must connect again (refused refresh, revoked grant, no refresh token). */
export class NeedsReconnectError extends Error {
  constructor(readonly connectionId: string) {
    super("the upstream connection needs to be made again");
    this.name = "NeedsReconnectError";
  }
}

/** Refresh a little before the end: a token sent as it expires comes back as 401. */
const EARLY_MS = 1_000;

/** A connection as the call path found it: by its connector, in its organization (never by id alone). */
export interface ConnectionRef {
  id: string;
  orgId: string;
}

/** The access token to send now (refreshing an expired one first). */
export async function accessTokenOf(ref: ConnectionRef): Promise<string> {
  const known = cachedToken(ref.id) ?? (await readToken(ref));
  if (known.expiresAt === null || known.expiresAt - EARLY_MS > Date.now()) return known.accessToken;
  return refreshConnection(ref, known.accessToken);
}

async function readToken({ id: connectionId, orgId }: ConnectionRef) {
  const row = await db().upstreamConnection.findFirst({ where: { id: connectionId, orgId }, select: { tokens: true, status: true, expiresAt: true } });
  if (!row || row.status !== "connected") throw new NeedsReconnectError(connectionId);
  const token = { accessToken: openConnection(row.tokens).tokens.access_token, expiresAt: row.expiresAt?.getTime() ?? null };
  rememberToken(connectionId, token);
  return token;
}

/** One refresh per connection in this process at a time; the row lock orders the instances. */
const globalForRefresh = processState<{ switchboardRefreshing?: Map<string, Promise<string>> }>();
const refreshing = (globalForRefresh.switchboardRefreshing ??= new Map());

/** A new access token in place of `stale` (the one that expired or got a 401). */
export function refreshConnection(ref: ConnectionRef, stale: string): Promise<string> {
  const running = refreshing.get(ref.id);
  if (running) return running;
  const promise = refreshUnderLock(ref, stale).finally(() => refreshing.delete(ref.id));
  refreshing.set(ref.id, promise);
  return promise;
}

type LockedOutcome = { ok: true; token: string; expiresAt: number | null } | { ok: false; reason: string; row?: { orgId: string; connectorId: string; userId: string | null } };

async function refreshUnderLock({ id: connectionId, orgId }: ConnectionRef, stale: string): Promise<string> {
  forgetCachedToken(connectionId);
  const outcome = await db().$transaction(
    async (tx): Promise<LockedOutcome> => {
      const rows = await tx.$queryRaw<{ tokens: string; status: string; expires_at: Date | null; org_id: string; connector_id: string; user_id: string | null }[]>`
        SELECT tokens, status, expires_at, org_id, connector_id, user_id FROM upstream_connections WHERE id = ${connectionId} AND org_id = ${orgId} FOR UPDATE`;
      const row = rows[0];
      if (!row || row.status !== "connected") return { ok: false, reason: "not connected" };
      const owner = { orgId: row.org_id, connectorId: row.connector_id, userId: row.user_id };
      const sealed = openConnection(row.tokens);
      const fresh = row.expires_at === null || row.expires_at.getTime() - EARLY_MS > Date.now();
      // Another call (or instance) refreshed while we waited for the lock: its token is ours.
      if (sealed.tokens.access_token !== stale && fresh) return { ok: true, token: sealed.tokens.access_token, expiresAt: row.expires_at?.getTime() ?? null };
      if (!sealed.tokens.refresh_token) return { ok: false, reason: "no refresh token", row: owner };
      let next: SealedConnection;
      try {
        next = await refreshed(sealed);
      } catch (e) {
        if (isGrantRefused(e)) return { ok: false, reason: describeOAuthFailure(e), row: owner };
        throw e; // unreachable, a 5xx: the connection stays, this call fails
      }
      const expiresAt = expiryOf(next.tokens);
      await tx.upstreamConnection.update({ where: { id: connectionId, orgId }, data: { tokens: sealConnection(next), expiresAt } });
      return { ok: true, token: next.tokens.access_token, expiresAt: expiresAt?.getTime() ?? null };
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
  if (outcome.ok) {
    rememberToken(connectionId, { accessToken: outcome.token, expiresAt: outcome.expiresAt });
    return outcome.token;
  }
  if (outcome.row) await markNeedsReconnect(connectionId, outcome.row, outcome.reason);
  throw new NeedsReconnectError(connectionId);
}

async function refreshed(sealed: SealedConnection): Promise<SealedConnection> {
  const server = sealed.discovery?.authorizationServerUrl;
  if (!server) throw new Error("the connection has no authorization server recorded");
  const tokens = await refreshAuthorization(server, {
    metadata: sealed.discovery?.authorizationServerMetadata,
    clientInformation: sealed.client,
    refreshToken: sealed.tokens.refresh_token!,
    resource: sealed.resource ? new URL(sealed.resource) : undefined,
    fetchFn: limitedFetch,
  });
  // Rotation: a new refresh token replaces the old; none given keeps the old one.
  return { ...sealed, tokens: { ...tokens, refresh_token: tokens.refresh_token ?? sealed.tokens.refresh_token, issuer: sealed.tokens.issuer } };
}

async function markNeedsReconnect(connectionId: string, owner: { orgId: string; connectorId: string; userId: string | null }, reason: string): Promise<void> {
  const { count } = await db().upstreamConnection.updateMany({ where: { id: connectionId, orgId: owner.orgId, status: "connected" }, data: { status: "needs_reconnect" } });
  if (count === 0) return;
  logger.info({ connectionId, connectorId: owner.connectorId }, "upstream refused a refresh: the connection needs to be made again");
  await recordAuditEvent(
    owner.userId ? { kind: "user", userId: owner.userId, apiKey: null } : { kind: "instance" },
    { orgId: owner.orgId, action: "connection.refresh_refused", targetType: "connector", targetId: owner.connectorId, data: { connectionId, reason: reason.slice(0, 200) } },
  ).catch(() => undefined);
}
