import { checkResourceAllowed } from "@modelcontextprotocol/client";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { CLIENT_INFO } from "@/lib/connectors/open-upstream";

/**
 * The MCP SDK's OAuth client (its `auth()`: discovery of RFC 9728 / RFC 8414 / OpenID
 * metadata, the client identity, PKCE S256, `resource`, scope selection, the code exchange,
 * RFC 9207 `iss`) driven for one connection attempt. It holds what one run reads and writes
 * in memory; the caller loads it from and saves it to the database around the run
 * (lib/connectors/upstream-auth/connect.ts), so nothing here touches storage.
 */

export interface ProviderSeed {
  redirectUri: string;
  /** The client the admin registered (id, and secret when confidential). */
  adminClient?: { client_id: string; client_secret?: string };
  /** Switchboard's Client ID Metadata Document URL (https PUBLIC_URL only). */
  clientMetadataUrl?: string;
  /** A registration made earlier for this redirect URI (dynamic registration, kept per connector). */
  registered?: StoredOAuthClientInformation;
  /** Discovery of an earlier leg (the callback) or the endpoints an http connector names. */
  discovery?: OAuthDiscoveryState;
  state?: string;
  codeVerifier?: string;
  tokens?: StoredOAuthTokens;
}

export class ConnectionAttempt implements OAuthClientProvider {
  authorizationUrl?: URL;
  client?: StoredOAuthClientInformation;
  /** Set when `auth()` registered a new client (to be kept for the connector). */
  newRegistration = false;
  discovery?: OAuthDiscoveryState;
  verifier?: string;
  savedTokens?: StoredOAuthTokens;
  resource?: string;
  readonly clientMetadataUrl?: string;

  constructor(private readonly seed: ProviderSeed) {
    this.client = seed.adminClient ?? seed.registered;
    this.discovery = seed.discovery;
    this.verifier = seed.codeVerifier;
    this.savedTokens = seed.tokens;
    // The admin's client comes first; the metadata document only where nothing else is set.
    this.clientMetadataUrl = seed.adminClient ? undefined : seed.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.seed.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Switchboard",
      redirect_uris: [this.seed.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.seed.adminClient?.client_secret ? "client_secret_basic" : "none",
      application_type: "web",
      software_id: CLIENT_INFO.name,
      software_version: CLIENT_INFO.version,
    };
  }

  state(): string {
    return this.seed.state ?? "";
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.newRegistration = !this.seed.adminClient && info.client_id !== this.clientMetadataUrl;
    this.client = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.savedTokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no PKCE verifier for this connection attempt");
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /**
   * The `resource` (RFC 8707) asked for: the RFC 9728 metadata's when it names this upstream,
   * else the upstream's canonical URL — also when there is no metadata (a plain API, some MCP
   * servers), where the SDK on its own would send none. Metadata naming another resource is
   * refused, as the SDK does. Either is sent exactly as written (see `asSent`).
   */
  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    const canonical = new URL(serverUrl);
    if (!resource) return asSent(canonicalText(canonical));
    if (!checkResourceAllowed({ requestedResource: canonical, configuredResource: resource })) throw new Error(`Protected resource ${resource} does not match expected ${canonical.href} (or origin)`);
    return asSent(resource);
  }

  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.savedTokens = undefined;
    // The admin's client is what the admin set: it is never dropped for a registration.
    if ((scope === "all" || scope === "client") && !this.seed.adminClient) this.client = undefined;
  }
}

/**
 * The server's canonical URI as the MCP authorization spec writes it: no fragment, and no
 * trailing "/" when there is no path (`https://mcp.example.com`, not `https://mcp.example.com/`).
 */
function canonicalText(url: URL): string {
  const text = url.href.replace(/#.*$/, "");
  return url.pathname === "/" && !url.search ? text.replace(/\/$/, "") : text;
}

/**
 * A URL whose `href` is `text` exactly. The SDK sends the `resource` parameter from the `href`
 * of what validateResourceURL returns, and a parsed pathless identifier gains a "/"
 * (`http://host:1` → `http://host:1/`): the suite's auth/metadata-var2 refuses that, since
 * RFC 9728 §3.3 wants the identifier exactly as the metadata published it.
 */
function asSent(text: string): URL {
  const url = new URL(text);
  Object.defineProperty(url, "href", { value: text, enumerable: true });
  return url;
}
