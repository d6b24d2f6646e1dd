import { fetchToken, type AuthorizationServerMetadata, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { LRUCache } from "lru-cache";
import { limitedFetch } from "@/lib/connectors/upstream-auth/oauth-fetch";
import { processState } from "@/lib/process-state";

/**
 * `client_credentials` (machine to machine, issue 24 point 1): the token comes from the
 * connector's own client at its `tokenUrl` through the SDK's `fetchToken`, and is kept in this
 * process until shortly before it expires (or the upstream answers 401).
 */

export interface ClientCredentialsSettings {
  connectorId: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  audience?: string;
  /** Part of the cache key: a changed connector fetches a new token. */
  version: number;
}

/** Connectors one process keeps a machine token for; the least recently used go first (a token is fetched again). */
const MAX_CONNECTORS = 5_000;

const globalForTokens = processState<{ switchboardClientCredentialTokens?: LRUCache<string, { token: string; until: number }> }>();
const tokens = (globalForTokens.switchboardClientCredentialTokens ??= new LRUCache({ max: MAX_CONNECTORS }));
const EARLY_MS = 30_000;
/** Token requests under way, by connector: concurrent callers (the first ones, all at expiry) share one. */
const globalForFetching = processState<{ switchboardClientCredentialFetches?: Map<string, Promise<string>> }>();
const fetching = (globalForFetching.switchboardClientCredentialFetches ??= new Map());

/** The connector's machine token; `fresh`: a new one even if one is kept (the upstream answered 401). */
export async function clientCredentialsToken(settings: ClientCredentialsSettings, fresh = false): Promise<string> {
  const key = `${settings.connectorId}|${settings.version}`;
  const known = tokens.get(key);
  if (!fresh && known && known.until > Date.now()) return known.token;
  // A request under way brings a new token either way.
  const pending = fetching.get(key);
  if (pending) return pending;
  const request = fetchNewToken(settings, key).finally(() => fetching.delete(key));
  fetching.set(key, request);
  return request;
}

async function fetchNewToken(settings: ClientCredentialsSettings, key: string): Promise<string> {
  const provider = credentialsProvider(settings);
  const metadata = { issuer: new URL(settings.tokenUrl).origin, token_endpoint: settings.tokenUrl, authorization_endpoint: settings.tokenUrl, response_types_supported: ["token"] } as AuthorizationServerMetadata;
  const got = await fetchToken(provider, new URL(settings.tokenUrl).origin, { metadata, scope: settings.scopes?.join(" ") || undefined, fetchFn: limitedFetch });
  const lifetime = typeof got.expires_in === "number" ? got.expires_in * 1000 : 3600_000;
  for (const old of [...tokens.keys()]) if (old.startsWith(`${settings.connectorId}|`)) tokens.delete(old);
  tokens.set(key, { token: got.access_token, until: Date.now() + Math.max(lifetime - EARLY_MS, lifetime / 2) });
  return got.access_token;
}

function credentialsProvider(settings: ClientCredentialsSettings): OAuthClientProvider {
  return {
    redirectUrl: undefined,
    clientMetadata: { redirect_uris: [], grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_basic" },
    clientInformation: () => ({ client_id: settings.clientId, client_secret: settings.clientSecret }),
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: () => undefined,
    saveCodeVerifier: () => undefined,
    codeVerifier: () => "",
    prepareTokenRequest: (scope?: string) => {
      const params = new URLSearchParams({ grant_type: "client_credentials" });
      if (scope) params.set("scope", scope);
      if (settings.audience) params.set("audience", settings.audience);
      return params;
    },
  };
}
