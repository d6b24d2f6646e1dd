import { randomBytes } from "node:crypto";
import { auth, computeScopeUnion, extractWWWAuthenticateParams, type OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { setting } from "@/lib/config/settings";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import type { Caller } from "@/lib/auth/caller";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { roleIn } from "@/lib/permissions/guards";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { orgsVisibleTo } from "@/lib/tenancy/scopes";
import { asConnectorAuth, clientFingerprint, type ConnectorAuth, openClientSecret } from "@/lib/connectors/upstream-auth/auth-settings";
import { ConnectionAttempt } from "@/lib/connectors/upstream-auth/client-provider";
import { openClientState, sealClientState, sealStart, slotOf, stateHash } from "@/lib/connectors/upstream-auth/connection-store";
import { stepUpScopeOf } from "@/lib/connectors/upstream-auth/step-up";
import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import { describeOAuthFailure } from "@/lib/connectors/upstream-auth/oauth-errors";

/**
 * Starting a connection (issue 24 point 3, `POST /connectors/{id}/connections`): the SDK's
 * `auth()` discovers the upstream's authorization server, picks the client identity (the
 * admin's, our metadata document, or a dynamic registration kept per connector) and builds the
 * authorization URL with PKCE S256, `resource` and the scopes; the attempt's state is kept
 * single use for 10 minutes, bound to the person who started it.
 */

export const START_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/api/connections/callback";
export const CLIENT_METADATA_PATH = "/api/connections/client-metadata";

export interface OAuthConnector {
  id: string;
  orgId: string;
  name: string;
  type: "http" | "mcp";
  config: unknown;
  auth: Extract<ConnectorAuth, { type: "oauth" }>;
  authSecret: string | null;
  oauthClientState: string | null;
}

/** The resource a connector's tokens are for: its MCP url, or an http connector's base URL. */
export function serverUrlOf(connector: Pick<OAuthConnector, "type" | "config">): string {
  const c = (connector.config ?? {}) as { url?: string; baseUrl?: string };
  const url = connector.type === "mcp" ? c.url : c.baseUrl;
  if (!url) throw new ConflictError("The connector has no upstream URL.");
  return url;
}

/** The connector of `connectorId` the caller may connect to: any person of its organization. */
export async function connectableConnector(caller: Caller, connectorId: string): Promise<OAuthConnector & { role: string | null }> {
  if (caller.kind !== "user") throw new ForbiddenError("Connections belong to a person: connect with a browser session or your own API key, not the instance credential.");
  const row = await db().connector.findFirst({
    where: { id: connectorId, org: orgsVisibleTo(caller) },
    select: { id: true, orgId: true, name: true, type: true, config: true, auth: true, authSecret: true, oauthClientState: true },
  });
  if (!row) throw new NotFoundError("connector");
  const connectorAuth = asConnectorAuth(row.auth);
  if (connectorAuth.type !== "oauth") throw new ConflictError("This connector does not use OAuth connections (its auth is not `oauth`).");
  return { ...row, auth: connectorAuth, role: await roleIn(db(), caller, row.orgId) };
}

/** Starts a connection for the calling person; answers the URL to open in their browser. */
export async function startConnection(caller: Caller, connectorId: string, input: { returnTo?: string }, origin: string): Promise<{ authorizationUrl: string }> {
  assertCredentialMay(caller, "connections.own");
  const connector = await connectableConnector(caller, connectorId);
  if (connector.auth.connection === "shared" && connector.role !== "owner" && connector.role !== "admin") {
    throw new ForbiddenError("Only an owner or admin connects a shared connector.");
  }
  if (input.returnTo !== undefined && safeCallbackPath(input.returnTo, "") !== input.returnTo) {
    throw new ValidationError([{ path: "returnTo", message: "returnTo is a path on this site (same origin only)." }]);
  }
  return beginAttempt(connector, (caller as { userId: string }).userId, origin, input.returnTo);
}

/** The attempt itself: also what the connect link of an MCP answer starts (lib/connectors/upstream-auth/connect-link.ts). */
export async function beginAttempt(connector: OAuthConnector, userId: string, origin: string, returnTo?: string, widerScope?: string): Promise<{ authorizationUrl: string }> {
  const serverUrl = serverUrlOf(connector);
  const redirectUri = `${origin}${CALLBACK_PATH}`;
  const challenge = connector.type === "mcp" ? await readChallenge(serverUrl) : {};
  // Step-up: the upstream asked this person's connection for more (lib/connectors/upstream-auth/step-up.ts).
  const stepUp = await stepUpScopeOf({ orgId: connector.orgId, connectorId: connector.id, slot: slotOf(connector.auth.connection, userId) });
  const scope = scopeChoice(connector.auth, challenge.scope, computeScopeUnion(widerScope, stepUp));
  const state = randomBytes(32).toString("base64url");
  const registrations = openClientState(connector.oauthClientState).registrations ?? {};
  const attempt = new ConnectionAttempt({
    redirectUri,
    state,
    adminClient: adminClientOf(connector),
    clientMetadataUrl: clientMetadataUrl(),
    registered: registrations[redirectUri],
    discovery: namedServer(connector),
  });
  try {
    const outcome = await auth(attempt, { serverUrl, scope, resourceMetadataUrl: challenge.resourceMetadataUrl, fetchFn: limitedFetch });
    if (outcome !== "REDIRECT" || !attempt.authorizationUrl || !attempt.verifier || !attempt.client) throw new Error("the authorization server gave no authorization URL");
  } catch (e) {
    throw new ValidationError([{ path: "connector", message: `The upstream's authorization could not be started: ${describeOAuthFailure(e)}` }], "The upstream's authorization could not be started.");
  }
  if (attempt.newRegistration) {
    // Kept per connector and redirect URI: a registration made for one origin is made again for another.
    await db().connector.updateMany({
      where: { id: connector.id, orgId: connector.orgId },
      data: { oauthClientState: sealClientState({ registrations: { ...registrations, [redirectUri]: attempt.client! } }) },
    });
  }
  await db().upstreamConnectionStart.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  await db().upstreamConnectionStart.create({
    data: {
      stateHash: stateHash(state),
      orgId: connector.orgId,
      connectorId: connector.id,
      userId,
      expiresAt: new Date(Date.now() + START_TTL_MS),
      sealed: sealStart({ verifier: attempt.verifier!, redirectUri, client: attempt.client!, discovery: attempt.discovery, scope, returnTo, serverUrl, madeWith: clientFingerprint(connector.auth) }),
    },
  });
  return { authorizationUrl: attempt.authorizationUrl!.toString() };
}

/**
 * The admin's scopes when set (least privilege), else the challenge's, else the SDK's choice
 * (`scopes_supported`); a step-up's wider scope is added to either (the upstream asked for it).
 */
function scopeChoice(connectorAuth: OAuthConnector["auth"], challenged: string | undefined, wider: string | undefined): string | undefined {
  if (connectorAuth.scopes && connectorAuth.scopes.length > 0) return computeScopeUnion(connectorAuth.scopes.join(" "), wider);
  return wider ? computeScopeUnion(challenged, wider) : challenged;
}

function adminClientOf(connector: OAuthConnector): { client_id: string; client_secret?: string } | undefined {
  if (!connector.auth.clientId) return undefined;
  const secret = openClientSecret(connector.authSecret);
  return { client_id: connector.auth.clientId, ...(secret ? { client_secret: secret } : {}) };
}

/** Our Client ID Metadata Document: only under an https PUBLIC_URL (an authorization server fetches it). */
export function clientMetadataUrl(): string | undefined {
  const base = setting("PUBLIC_URL")?.replace(/\/+$/, "");
  return base?.startsWith("https://") ? `${base}${CLIENT_METADATA_PATH}` : undefined;
}

/**
 * An http connector's named authorization server: its issuer (metadata discovered) or its two
 * endpoints. With endpoints only, the issuer is unknown and left unset: an invented one (the
 * endpoint's origin) would refuse the RFC 9207 `iss` of an issuer with a path (a Keycloak
 * realm); with none, the SDK skips that comparison, as RFC 9207 allows.
 */
export function namedServer(connector: Pick<OAuthConnector, "type" | "auth">): OAuthDiscoveryState | undefined {
  const a = connector.auth;
  if (connector.type !== "http") return undefined;
  if (a.authorizationEndpoint && a.tokenEndpoint) {
    return {
      authorizationServerUrl: a.authorizationServer ?? new URL(a.authorizationEndpoint).origin,
      authorizationServerMetadata: {
        ...(a.authorizationServer ? { issuer: a.authorizationServer } : {}),
        authorization_endpoint: a.authorizationEndpoint,
        token_endpoint: a.tokenEndpoint,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      },
    } as OAuthDiscoveryState;
  }
  return a.authorizationServer ? { authorizationServerUrl: a.authorizationServer } : undefined;
}

/** The upstream's 401 challenge (`resource_metadata`, `scope`), when it gives one. */
async function readChallenge(serverUrl: string): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const response = await limitedFetch(serverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { resourceMetadataUrl, scope };
  } catch {
    return {}; // discovery falls back to the well-known addresses
  }
}
