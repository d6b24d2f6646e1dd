import type { AuthProvider } from "@modelcontextprotocol/client";
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db/client";
import { asConnectorAuth, type ConnectorAuth, openClientSecret } from "@/lib/connectors/upstream-auth/auth-settings";
import { clientCredentialsToken } from "@/lib/connectors/upstream-auth/client-credentials";
import { connectLink } from "@/lib/connectors/upstream-auth/connect-link";
import { accessTokenOf, type ConnectionRef, refreshConnection } from "@/lib/connectors/upstream-auth/tokens";
import { processState } from "@/lib/process-state";
import { markStepUp, stepUpScopeOf } from "@/lib/connectors/upstream-auth/step-up";
import { roleIn } from "@/lib/permissions/guards";
import { originOf } from "@/lib/connectors/upstream-auth/change-auth";
import { openConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import { publicConfig } from "@/lib/connectors/connector-view";
import { errorText, logger } from "@/lib/log";

/**
 * The one entry point the call path asks just before a request goes upstream (issue 24
 * point 4): which credential the request carries for this caller. `none`: the connector's
 * static headers only (today's behaviour); `token`: a bearer the transport asks for on every
 * request and refreshes once on a 401; `missing`: nothing is sent upstream, and the caller is
 * told how to connect (lib/connectors/upstream-auth/connect-answer.ts).
 */

export type UpstreamCredential =
  | { kind: "none" }
  | { kind: "token"; provider: AuthProvider; connectionId?: string; shared?: boolean }
  | {
      kind: "missing";
      reason: MissingReason;
      connectorId: string;
      connectorName: string;
      /** The caller's connect link; null for the instance, and for a member on a shared connector (only an owner or admin connects it). */
      connectUrl: string | null;
      stepUpScope?: string;
      /** A step-up refused this request only: the connection stays and serves every call its scopes allow. */
      stillConnected?: boolean;
      /** The connector's one shared account is what is missing or too narrow, not the caller's own. */
      shared?: boolean;
    };

type MissingReason = "not_connected" | "needs_reconnect" | "instance";
export type MissingCredential = Extract<UpstreamCredential, { kind: "missing" }>;

interface ConnectorRef {
  id: string;
  orgId: string;
  name: string;
  /** Where the request goes (the snapshot's url or baseUrl); without it, the connector's stored one. */
  config?: { url?: string; baseUrl?: string };
}

interface AuthRow {
  auth: ConnectorAuth;
  authSecret: string | null;
  updatedAt: number;
  /** The stored upstream URL (mcp `url`, http `baseUrl`). */
  upstreamUrl: string | undefined;
}

/** The connector's auth settings per configuration version: a changed connector bumps it. */
const globalForAuth = processState<{ switchboardConnectorAuth?: LRUCache<string, AuthRow> }>();
const authRows = (globalForAuth.switchboardConnectorAuth ??= new LRUCache({ max: 5_000 }));

async function authOf(connector: ConnectorRef, configVersion: number): Promise<AuthRow | null> {
  const key = `${connector.orgId}|${connector.id}|${configVersion}`;
  const known = authRows.get(key);
  if (known) return known;
  const row = await db().connector.findFirst({ where: { id: connector.id, orgId: connector.orgId }, select: { auth: true, authSecret: true, updatedAt: true, type: true, config: true } });
  if (!row) return null;
  const stored = publicConfig(row.type, row.config);
  const value = { auth: asConnectorAuth(row.auth), authSecret: row.authSecret, updatedAt: row.updatedAt.getTime(), upstreamUrl: stored.url ?? stored.baseUrl };
  authRows.set(key, value);
  return value;
}

/** What a request of `userId` (null: the instance credential) to `connector` authenticates with. */
export async function upstreamCredential(connector: ConnectorRef, userId: string | null, configVersion: number): Promise<UpstreamCredential> {
  const row = await authOf(connector, configVersion);
  if (!row || row.auth.type === "headers") return { kind: "none" };
  if (row.auth.type === "client_credentials") {
    const settings = { connectorId: connector.id, tokenUrl: row.auth.tokenUrl, clientId: row.auth.clientId, clientSecret: openClientSecret(row.authSecret) ?? "", scopes: row.auth.scopes, audience: row.auth.audience, version: row.updatedAt };
    return { kind: "token", provider: { token: () => clientCredentialsToken(settings), onUnauthorized: async () => void (await clientCredentialsToken(settings, true)) } };
  }
  if (row.auth.type !== "oauth") return { kind: "none" };
  const shared = row.auth.connection === "shared";
  const missing = (reason: MissingReason) => missingConnection(connector, userId, reason, { shared });
  if (!shared && userId === null) return missing("instance");
  const slot = shared ? "shared" : userId!;
  const connection = await db().upstreamConnection.findFirst({ where: { connectorId: connector.id, orgId: connector.orgId, slot }, select: { id: true, status: true, tokens: true } });
  if (!connection) return userId === null ? missing("instance") : missing("not_connected");
  if (connection.status !== "connected") {
    if (userId === null) return missing("instance");
    const stepUpScope = await stepUpScopeOf({ orgId: connector.orgId, connectorId: connector.id, slot });
    return missingConnection(connector, userId, "needs_reconnect", { shared, stepUpScope });
  }
  const destination = connector.config?.url ?? connector.config?.baseUrl ?? row.upstreamUrl;
  if (!madeForOrigin(connection.tokens, destination)) {
    await refuseMovedConnection({ id: connection.id, orgId: connector.orgId }, connector.id);
    return userId === null ? missing("instance") : missing("needs_reconnect");
  }
  return { kind: "token", connectionId: connection.id, shared, provider: connectionAuthProvider({ id: connection.id, orgId: connector.orgId }) };
}

/**
 * How a caller is told of a missing (or too narrow) connection. A shared connector's account is
 * connected by an owner or admin only (anyone else's link would answer 403), so only they get
 * the link; the instance credential gets none.
 */
export async function missingConnection(
  connector: ConnectorRef,
  userId: string | null,
  reason: MissingReason,
  opts: { shared?: boolean; stepUpScope?: string; stillConnected?: boolean } = {},
): Promise<MissingCredential> {
  const instance = reason === "instance" || userId === null;
  const mayConnect = !instance && (!opts.shared || isOwnerOrAdmin(await roleIn(db(), { kind: "user", userId, apiKey: null }, connector.orgId).catch(() => null)));
  return {
    kind: "missing",
    reason: instance ? "instance" : reason,
    connectorId: connector.id,
    connectorName: connector.name,
    connectUrl: mayConnect ? connectLink(connector.id, userId!) : null,
    ...(opts.stepUpScope ? { stepUpScope: opts.stepUpScope } : {}),
    ...(opts.shared ? { shared: true } : {}),
    ...(opts.stillConnected ? { stillConnected: true } : {}),
  };
}

const isOwnerOrAdmin = (role: string | null) => role === "owner" || role === "admin";

/**
 * The caller's answer after the upstream asked `credential`'s connection for a wider scope
 * (403 insufficient_scope, lib/connectors/upstream-auth/step-up.ts): the connect answer naming
 * the scope the next connect asks for. The connection stays connected for the caller's other calls.
 */
export async function afterStepUp(connector: ConnectorRef, userId: string | null, credential: { connectionId: string; shared?: boolean }, requiredScope: string | undefined): Promise<MissingCredential> {
  // Never thrown from here (the call paths promise an answer): a failed mark still answers, with the scope asked.
  const marked = await markStepUp({ id: credential.connectionId, orgId: connector.orgId }, requiredScope).catch((e) => {
    logger.warn({ connectionId: credential.connectionId, connectorId: connector.id, err: errorText(e) }, "marking a step-up failed");
    return null;
  });
  return missingConnection(connector, userId, "needs_reconnect", { shared: marked?.shared ?? credential.shared, stepUpScope: marked?.nextScope ?? requiredScope, stillConnected: true });
}

/**
 * Defence in depth behind changeConnectorOrigin (change-auth.ts): a connection's tokens go only
 * to the origin they were granted for (`madeFor`, else the RFC 8707 `resource`). A connection
 * made before either was recorded cannot be checked and is let through; an unreadable one is not.
 */
function madeForOrigin(sealed: string, destination: string | undefined): boolean {
  let made: string | undefined;
  try {
    const opened = openConnection(sealed);
    made = opened.madeFor ?? opened.resource;
  } catch {
    return false;
  }
  return made === undefined || originOf(made) === originOf(destination);
}

async function refuseMovedConnection(ref: ConnectionRef, connectorId: string): Promise<void> {
  forgetCachedToken(ref.id);
  await db().upstreamConnection.updateMany({ where: { id: ref.id, orgId: ref.orgId, status: "connected" }, data: { status: "needs_reconnect" } });
  logger.warn({ connectionId: ref.id, connectorId }, "the connector's upstream is on another origin than the connection was made for: not sent, the connection needs to be made again");
}

/** The transport's view of a connection: its token before each request, one refresh on a 401. */
export function connectionAuthProvider(ref: ConnectionRef): AuthProvider {
  let last: string | undefined;
  return {
    token: async () => (last = await accessTokenOf(ref)),
    onUnauthorized: async () => void (last = await refreshConnection(ref, last ?? "")),
  };
}
