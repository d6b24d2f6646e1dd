import { auth } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { errorText, logger } from "@/lib/log";
import { asConnectorAuth, clientFingerprint } from "@/lib/connectors/upstream-auth/auth-settings";
import { ConnectionAttempt } from "@/lib/connectors/upstream-auth/client-provider";
import { expiryOf, openStart, scopesOf, sealConnection, slotOf, stateHash, type SealedStart } from "@/lib/connectors/upstream-auth/connection-store";
import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import { describeOAuthFailure } from "@/lib/connectors/upstream-auth/oauth-errors";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import { discoverWithFirstConnection } from "@/lib/connectors/upstream-auth/discover-with-connection";

/**
 * The upstream sends the browser back here (`/api/connections/callback`). The state is single
 * use, lives 10 minutes and belongs to the person who started: completed in another person's
 * browser session it is refused and nothing is stored for either; with no session the person
 * signs in first and comes back. The code is redeemed by the SDK's `auth()` (PKCE verifier,
 * RFC 9207 `iss` against the authorization server recorded at the start).
 */

export type CallbackOutcome =
  | { kind: "sign_in"; callbackPath: string }
  | { kind: "refused"; message: string }
  | { kind: "connected"; connectorName: string; returnTo?: string };

export async function completeConnection(query: URLSearchParams, sessionUserId: string | null, callbackPath: string): Promise<CallbackOutcome> {
  const state = query.get("state");
  if (!state || state.length > 512) return { kind: "refused", message: "This link has no valid state. Start connecting again from Switchboard." };
  const hash = stateHash(state);
  const start = await db().upstreamConnectionStart.findFirst({ where: { stateHash: hash, expiresAt: { gt: new Date() } }, select: { orgId: true, connectorId: true, userId: true, sealed: true } });
  if (!start) return { kind: "refused", message: "This connection attempt has expired or was already used. Start connecting again from Switchboard." };
  if (!sessionUserId) return { kind: "sign_in", callbackPath };
  // Single use: whoever completes it (or fails to), the state is gone.
  const { count } = await db().upstreamConnectionStart.deleteMany({ where: { stateHash: hash, orgId: start.orgId } });
  if (count !== 1) return { kind: "refused", message: "This connection attempt was already used. Start connecting again from Switchboard." };
  if (sessionUserId !== start.userId) {
    return { kind: "refused", message: "This connection was started by another person. Nothing was stored: sign in as the person who started it, or start connecting again yourself." };
  }
  const error = query.get("error");
  if (error) return { kind: "refused", message: `The upstream did not authorize the connection (${error.slice(0, 100)}). Nothing was stored.` };
  const code = query.get("code");
  if (!code) return { kind: "refused", message: "The upstream sent no authorization code. Nothing was stored." };
  const sealed = openStart(start.sealed);
  const connector = await db().connector.findFirst({ where: { id: start.connectorId, orgId: start.orgId }, select: { id: true, orgId: true, name: true, auth: true } });
  const connectorAuth = connector ? asConnectorAuth(connector.auth) : null;
  if (!connector || connectorAuth?.type !== "oauth") return { kind: "refused", message: "The connector no longer exists or no longer uses OAuth. Nothing was stored." };
  if (clientFingerprint(connectorAuth) !== sealed.madeWith) return { kind: "refused", message: "The connector's OAuth settings changed meanwhile. Start connecting again." };
  const attempt = new ConnectionAttempt({ redirectUri: sealed.redirectUri, registered: sealed.client, discovery: sealed.discovery, codeVerifier: sealed.verifier });
  try {
    await auth(attempt, { serverUrl: sealed.serverUrl, authorizationCode: code, iss: query.get("iss") ?? undefined, scope: sealed.scope, fetchFn: limitedFetch });
  } catch (e) {
    logger.warn({ connectorId: connector.id, err: describeOAuthFailure(e) }, "upstream connection: code exchange failed");
    return { kind: "refused", message: `The upstream did not give a token: ${describeOAuthFailure(e)}. Nothing was stored.` };
  }
  if (!attempt.savedTokens) return { kind: "refused", message: "The upstream did not give a token. Nothing was stored." };
  await storeConnection({ ...start, connectorName: connector.name, connection: connectorAuth.connection }, sealed, attempt);
  // Point 5: a per_user connector's tools come with the first owner's or admin's connection.
  await discoverWithFirstConnection(connector.id, connector.orgId, start.userId).catch((e) => logger.warn({ connectorId: connector.id, err: errorText(e) }, "tool discovery with the new connection failed"));
  return { kind: "connected", connectorName: connector.name, returnTo: sealed.returnTo };
}

async function storeConnection(
  start: { orgId: string; connectorId: string; userId: string; connectorName: string; connection: "per_user" | "shared" },
  sealed: SealedStart,
  attempt: ConnectionAttempt,
): Promise<void> {
  const tokens = attempt.savedTokens!;
  const slot = slotOf(start.connection, start.userId);
  const data = {
    status: "connected",
    scopes: scopesOf(tokens, sealed.scope),
    expiresAt: expiryOf(tokens),
    madeById: start.userId,
    tokens: sealConnection({ tokens, client: attempt.client ?? sealed.client, discovery: attempt.discovery ?? sealed.discovery, resource: attempt.resource, madeFor: sealed.serverUrl, madeWith: sealed.madeWith }),
  };
  const row = await db().upstreamConnection.upsert({
    where: { connectorId_slot: { connectorId: start.connectorId, slot }, orgId: start.orgId },
    create: { orgId: start.orgId, connectorId: start.connectorId, userId: start.connection === "per_user" ? start.userId : null, connection: start.connection, slot, ...data },
    update: data,
    select: { id: true },
  });
  forgetCachedToken(row.id);
  await recordAuditEvent(
    { kind: "user", userId: start.userId, apiKey: null },
    { orgId: start.orgId, action: "connection.connect", targetType: "connector", targetId: start.connectorId, data: { connector: start.connectorName, connection: start.connection, connectionId: row.id, scopes: data.scopes } },
  );
}
