import type { AuthProvider } from "@modelcontextprotocol/client";
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db/client";
import { asConnectorAuth, type ConnectorAuth, openClientSecret } from "@/lib/connectors/upstream-auth/auth-settings";
import { clientCredentialsToken } from "@/lib/connectors/upstream-auth/client-credentials";
import { connectLink } from "@/lib/connectors/upstream-auth/connect-link";
import { accessTokenOf, type ConnectionRef, refreshConnection } from "@/lib/connectors/upstream-auth/tokens";
import { processState } from "@/lib/process-state";
import { stepUpScopeOf } from "@/lib/connectors/upstream-auth/step-up";
import { originOf } from "@/lib/connectors/upstream-auth/change-auth";
import { openConnection } from "@/lib/connectors/upstream-auth/connection-store";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import { publicConfig } from "@/lib/connectors/connector-view";
import { logger } from "@/lib/log";

/**
 * The one entry point the call path asks just before a request goes upstream (issue 24
 * point 4): which credential the request carries for this caller. `none`: the connector's
 * static headers only (today's behaviour); `token`: a bearer the transport asks for on every
 * request and refreshes once on a 401; `missing`: nothing is sent upstream, and the caller is
 * told how to connect (lib/connectors/upstream-auth/connect-answer.ts).
 */

export type UpstreamCredential =
  | { kind: "none" }
  | { kind: "token"; provider: AuthProvider; connectionId?: string }
  | { kind: "missing"; reason: "not_connected" | "needs_reconnect" | "instance"; connectorId: string; connectorName: string; connectUrl: string | null; stepUpScope?: string };

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
  const missing = (reason: "not_connected" | "needs_reconnect" | "instance"): UpstreamCredential => ({
    kind: "missing",
    reason,
    connectorId: connector.id,
    connectorName: connector.name,
    connectUrl: reason === "instance" ? null : connectLink(connector.id, userId!),
  });
  if (row.auth.type !== "oauth") return { kind: "none" };
  if (row.auth.connection === "per_user" && userId === null) return missing("instance");
  const slot = row.auth.connection === "shared" ? "shared" : userId!;
  const connection = await db().upstreamConnection.findFirst({ where: { connectorId: connector.id, orgId: connector.orgId, slot }, select: { id: true, status: true, tokens: true } });
  if (!connection) return userId === null ? missing("instance") : missing("not_connected");
  if (connection.status !== "connected") {
    if (userId === null) return missing("instance");
    const stepUpScope = await stepUpScopeOf({ orgId: connector.orgId, connectorId: connector.id, slot });
    return { ...missing("needs_reconnect"), ...(stepUpScope ? { stepUpScope } : {}) } as UpstreamCredential;
  }
  const destination = connector.config?.url ?? connector.config?.baseUrl ?? row.upstreamUrl;
  if (!madeForOrigin(connection.tokens, destination)) {
    await refuseMovedConnection({ id: connection.id, orgId: connector.orgId }, connector.id);
    return userId === null ? missing("instance") : missing("needs_reconnect");
  }
  return { kind: "token", connectionId: connection.id, provider: connectionAuthProvider({ id: connection.id, orgId: connector.orgId }) };
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
