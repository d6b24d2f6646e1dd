import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError as V1UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { clientRedirectOf } from "@/lib/oauth/consent";
import { api } from "@/tests/helpers/api";
import { browserSessionOf, createTenant, type Tenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * SPIKE, issue 13: the MCP SDK v1 and v2 clients' own OAuth providers against this instance, from the
 * first 401 to tools/list: discovery (RFC 9728, RFC 8414), dynamic registration, PKCE, token,
 * with the "browser" played by fetch carrying a signed-in admin's next-auth cookie through the
 * sign-in bridge and the consent step. Then tools/list is what the same user's API key gets.
 */

let app: RouteServer;
let t: Tenant;
let serverId: string;
const REDIRECT = "http://localhost:9/callback";

beforeAll(async () => {
  app = await startRouteServer();
  // PUBLIC_URL pins the issuer and resources to the route server's origin (a default install has none: the request's Host).
  process.env.PUBLIC_URL = app.origin;
  process.env.OAUTH_ENABLED = "true";
  t = await createTenant();
  const crm = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    config: { baseUrl: "https://api.example.com" },
    tools: ["get_customer", "list_customers"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } })),
  });
  serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [crm.body.id] })).body.id;
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  delete process.env.OAUTH_ENABLED;
  await app.close();
});

/** What a browser does with the authorization URL for a signed-in admin who clicks Allow. */
async function browseAndAllow(authorizationUrl: URL, nextAuthCookie: string): Promise<URLSearchParams> {
  let url = authorizationUrl;
  let cookies = nextAuthCookie;
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin + url.pathname === REDIRECT) return url.searchParams;
    if (url.pathname === "/oauth/consent") {
      const res = await fetch(`${app.origin}/oauth/consent/decide`, {
        method: "POST",
        headers: { cookie: cookies, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: new URLSearchParams({ oauth_query: url.searchParams.toString(), decision: "allow" }),
        redirect: "manual",
      });
      url = new URL(clientRedirectOf(await res.text())!, app.origin);
      continue;
    }
    const res = await fetch(url, { headers: { cookie: cookies, accept: "text/html" }, redirect: "manual" });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie) cookies = `${cookies}; ${setCookie.split(";")[0]}`;
    const location = res.headers.get("location") ?? ((await res.json()) as { url: string }).url;
    url = new URL(location, app.origin);
  }
  throw new Error("too many redirects");
}

function memoryProvider(onAuthorize: (url: URL) => void, name = "SDK v2 client"): OAuthClientProvider & { stored: Record<string, any> } {
  const stored: Record<string, any> = {};
  return {
    stored,
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return { client_name: name, redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
    },
    clientInformation: () => stored.client,
    saveClientInformation: (info) => void (stored.client = info),
    tokens: () => stored.tokens,
    saveTokens: (tokens) => void (stored.tokens = tokens),
    redirectToAuthorization: (url) => onAuthorize(url),
    saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier,
  };
}

describe("MCP SDK v2 OAuth (spike)", () => {
  it("from the 401 to tools/list: the same tools as the user's API key", async () => {
    let authorizationUrl: URL | null = null;
    const provider = memoryProvider((url) => void (authorizationUrl = url));
    const endpoint = new URL(`${app.origin}/mcp/${serverId}`);
    const first = new V2Transport(endpoint, { authProvider: provider });
    const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(authorizationUrl).not.toBeNull();
    expect(authorizationUrl!.searchParams.get("resource")).toBe(endpoint.href);
    expect(authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");

    const callback = await browseAndAllow(authorizationUrl!, (await browserSessionOf(t.admin.user)).cookie);
    await first.finishAuth(callback);
    expect(provider.stored.tokens.access_token).toBeTruthy();

    const connected = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await connected.connect(new V2Transport(endpoint, { authProvider: provider }));
    const viaOauth = (await connected.listTools()).tools.map((tool) => tool.name).sort();
    await connected.close();
    const keyed = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await keyed.connect(new V2Transport(endpoint, { requestInit: { headers: { authorization: `Bearer ${t.admin.token}` } } }));
    const viaKey = (await keyed.listTools()).tools.map((tool) => tool.name).sort();
    await keyed.close();
    expect(viaOauth).toEqual(["get_customer", "list_customers"]);
    expect(viaOauth).toEqual(viaKey);
  });

  it("the v1 SDK (2025-era) does the same: discovery from the 401, registration, PKCE, token, refresh; then the API key's tools", async () => {
    let authorizationUrl: URL | null = null;
    const provider = memoryProvider((url) => void (authorizationUrl = url), "SDK v1 client");
    const endpoint = new URL(`${app.origin}/mcp/${serverId}`);
    const first = new V1Transport(endpoint, { authProvider: provider as never });
    await expect(new V1Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(V1UnauthorizedError);
    const callback = await browseAndAllow(authorizationUrl!, (await browserSessionOf(t.admin.user)).cookie);
    await first.finishAuth(callback.get("code")!);
    const firstAccess = provider.stored.tokens.access_token;

    // An expired access token: the SDK refreshes it by itself (rotation gives a new refresh token).
    const firstRefresh = provider.stored.tokens.refresh_token;
    provider.stored.tokens = { ...provider.stored.tokens, access_token: "x.y.z" };
    const client = new V1Client({ name: "t", version: "1" });
    await client.connect(new V1Transport(endpoint, { authProvider: provider as never }));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["get_customer", "list_customers"]);
    await client.close();
    expect(provider.stored.tokens.access_token).not.toBe(firstAccess);
    expect(provider.stored.tokens.refresh_token).not.toBe(firstRefresh);
  });
});
