import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { isFetchableAddress } from "@/lib/oauth/fetch-client-document";
import { isClientIdUrl, isDocumentFresh, MAX_REMEMBERED_DOCUMENTS, rememberDocument } from "@/lib/oauth/client-metadata-document";
import { consentRequest } from "@/lib/oauth/consent";
import { createHttpConnector, createMcpServer, createTenant } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { authorize, authorizeUrl, decide, exchangeCode, mcpRpc, pkce, REDIRECT, sessionCookieFor, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";
import { clientRedirectOf } from "@/lib/oauth/consent";

/**
 * Client ID Metadata Documents: a client that names itself by the URL of its metadata
 * document, served here on 127.0.0.1 (OAUTH_CIMD_ALLOW_LOOPBACK), goes through /authorize and
 * /token like a registered client; a document that does not hold up leaves no client at all.
 */

let app: RouteServer;
let site: OauthSite;
let docs: http.Server;
let docsOrigin: string;
/** The same documents over https (a certificate made here), for the SDK, which takes only https client ids. */
let secureDocs: https.Server;
let secureOrigin: string;
/** path → what the document server answers there; and how often each path was fetched. */
const routes = new Map<string, { body: string; headers?: Record<string, string>; status?: number; hang?: boolean }>();
const hits = new Map<string, number>();

beforeAll(async () => {
  // Test-only: the client documents are served on loopback http, which the product refuses by default (SSRF).
  process.env.OAUTH_CIMD_ALLOW_LOOPBACK = "true";
  ({ app, site } = await startOauthSite());
  docs = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const route = routes.get(req.url!);
    if (route?.hang) return; // never answers
    if (!route) return void res.writeHead(404).end();
    res.writeHead(route.status ?? 200, { "content-type": "application/json", ...route.headers }).end(route.body);
  });
  await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
  docsOrigin = `http://127.0.0.1:${(docs.address() as net.AddressInfo).port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cimd-cert-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  secureDocs = https.createServer({ key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) }, docs.listeners("request")[0] as http.RequestListener);
  await new Promise<void>((resolve) => secureDocs.listen(0, "127.0.0.1", resolve));
  secureOrigin = `https://127.0.0.1:${(secureDocs.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK;
  for (const server of [docs, secureDocs]) {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  }
  await stopOauthSite(app);
});

let n = 0;
/** A document served at a fresh path: its URL (the client_id). */
function serveDocument(fields: Record<string, unknown> = {}, options: { headers?: Record<string, string>; raw?: string; status?: number; hang?: boolean; secure?: boolean } = {}): string {
  const docPath = `/clients/app-${++n}.json`;
  const clientId = `${options.secure ? secureOrigin : docsOrigin}${docPath}`;
  const body = options.raw ?? JSON.stringify({ client_id: clientId, client_name: `Metadata app ${n}`, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], ...fields });
  routes.set(docPath, { body, headers: options.headers, status: options.status, hang: options.hang });
  return clientId;
}

async function member() {
  const t = await createTenant();
  const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])]);
  return { cookie: await sessionCookieFor(t.member.user.id), serverId };
}

/** Where /authorize sends the browser for this client_id (and redirect URI). */
async function authorizeTarget(clientId: string, cookie: string, redirect = REDIRECT): Promise<URL> {
  const url = authorizeUrl(site, { client_id: clientId, code_challenge: pkce().challenge, resource: `${app.origin}/mcp`, redirect_uri: redirect });
  const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
  return new URL(res.headers.get("location") ?? (await res.json()).url, app.origin);
}

describe("Client ID Metadata Documents", () => {
  it("the authorization server metadata advertises them", () => {
    expect(site.metadata.client_id_metadata_document_supported).toBe(true);
  });

  it("a URL client_id goes through consent and the token endpoint; the token reaches the chosen server", async () => {
    const { cookie, serverId } = await member();
    const clientId = serveDocument();
    const resource = `${app.origin}/mcp/${serverId}`;
    const { verifier, challenge } = pkce();
    const { code, askedConsent } = await authorize(site, { cookie, clientId, challenge, resource, choice: { server: [serverId] } });
    expect(askedConsent).toBe(true);
    const res = await exchangeCode(site, { code, clientId, verifier, resource });
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    const list = await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list");
    expect(list.status).toBe(200);
    expect(list.message.result.tools.map((t: { name: string }) => t.name)).toContain("get_customer");
  });

  it("the MCP SDK v2 client names itself by its document's URL: no registration, the 401 to tools/list", async () => {
    const { cookie, serverId } = await member();
    const clientMetadataUrl = serveDocument({ client_name: "SDK by URL" }, { secure: true });
    const stored: Record<string, any> = {};
    let authorizationUrl: URL | null = null;
    const provider: OAuthClientProvider = {
      clientMetadataUrl,
      get redirectUrl() {
        return REDIRECT;
      },
      get clientMetadata() {
        return { client_name: "SDK by URL", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
      },
      clientInformation: () => stored.client,
      saveClientInformation: (info) => void (stored.client = info),
      tokens: () => stored.tokens,
      saveTokens: (tokens) => void (stored.tokens = tokens),
      redirectToAuthorization: (url) => void (authorizationUrl = url),
      saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
      codeVerifier: () => stored.verifier,
    };
    const endpoint = new URL(`${app.origin}/mcp/${serverId}`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(authorizationUrl!.searchParams.get("client_id")).toBe(clientMetadataUrl);
    const start = await fetch(authorizationUrl!, { headers: { cookie }, redirect: "manual" });
    const consent = new URL(start.headers.get("location") ?? (await start.json()).url, app.origin);
    expect(consent.pathname).toBe("/oauth/consent");
    const back = new URL(clientRedirectOf(await (await decide(site, cookie, consent.search.slice(1), { server: [serverId] })).text())!);
    await first.finishAuth(back.searchParams);
    expect(stored.tokens.access_token).toBeTruthy();
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer"]);
    await client.close();
    expect(app.requests.filter((r) => r.path.startsWith("/api/oauth/oauth2/register"))).toEqual([]);
    expect(await db().oauthClient.findUnique({ where: { clientId: clientMetadataUrl }, select: { name: true, clientDiscoveryId: true, tokenEndpointAuthMethod: true } })).toEqual({ name: "SDK by URL", clientDiscoveryId: "cimd", tokenEndpointAuthMethod: "none" });
  });

  it("the consent page names the client from its document", async () => {
    const { cookie } = await member();
    const clientId = serveDocument({ client_name: "Named In The Document" });
    const target = await authorizeTarget(clientId, cookie);
    expect(target.pathname).toBe("/oauth/consent");
    // The page itself is a Next page (not served here): what it renders from.
    const shown = await consentRequest(target.searchParams, null, app.origin);
    expect(shown).toMatchObject({ clientId, clientName: "Named In The Document", clientHost: new URL(docsOrigin).host, redirectHost: "127.0.0.1:9" });
  });

  it("the document is fetched again only when its max-age has passed; no-store documents every time", async () => {
    const { cookie } = await member();
    const cached = serveDocument({}, { headers: { "cache-control": "max-age=600" } });
    await authorizeTarget(cached, cookie);
    await authorizeTarget(cached, cookie);
    expect(hits.get(new URL(cached).pathname)).toBe(1);
    const uncached = serveDocument({}, { headers: { "cache-control": "no-store" } });
    await authorizeTarget(uncached, cookie);
    await authorizeTarget(uncached, cookie);
    expect(hits.get(new URL(uncached).pathname)).toBeGreaterThanOrEqual(2);
  });

  it("a redirect URI the document does not list is refused, on this site's error page", async () => {
    const { cookie } = await member();
    const target = await authorizeTarget(serveDocument(), cookie, "http://127.0.0.1:9/elsewhere");
    expect(target.origin).toBe(app.origin);
    expect(target.searchParams.get("error")).toBe("invalid_redirect");
  });

  it("a document that does not hold up leaves no client: invalid_client, never a redirect to the client", async () => {
    const { cookie } = await member();
    const refused = [
      serveDocument({ client_id: "https://someone-else.example/client.json" }), // not its own URL
      serveDocument({ pad: "x".repeat(6000) }), // > 5 KB
      serveDocument({}, { status: 500 }),
      serveDocument({}, { raw: "<!DOCTYPE html>" }),
      serveDocument({ client_secret: "chosen-by-the-client" }),
      serveDocument({ redirect_uris: [] }),
      // Browser-internal schemes, and the scheme reserved for this server's own stand-ins.
      serveDocument({ redirect_uris: [REDIRECT, "intent://callback"] }),
      serveDocument({ redirect_uris: [REDIRECT, "chrome://settings/cb"] }),
      serveDocument({ redirect_uris: [REDIRECT, "view-source:https://app.example/cb"] }),
      serveDocument({ redirect_uris: [REDIRECT, "app.switchboard.stand-in.r00x0:/callback"] }),
      `${docsOrigin}/clients/nothing-here.json`, // 404
      "http://127.0.0.1:9/clients/unreachable.json", // nothing listens
    ];
    for (const clientId of refused) {
      const target = await authorizeTarget(clientId, cookie);
      expect(target.origin, clientId).toBe(app.origin);
      expect(target.searchParams.get("error"), clientId).toBe("invalid_client");
    }
  });

  it("a document that never answers is given up on within the deadline", async () => {
    const { cookie } = await member();
    const started = Date.now();
    const target = await authorizeTarget(serveDocument({}, { hang: true }), cookie);
    expect(target.searchParams.get("error")).toBe("invalid_client");
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  it("a flood of made-up client ids is remembered up to a bound: the oldest are forgotten (and fetched again), the newest kept", () => {
    const flood = Array.from({ length: MAX_REMEMBERED_DOCUMENTS + 1 }, (_, i) => `https://flood-${i}.example/client.json`);
    for (const clientId of flood) rememberDocument(clientId, 600);
    expect(isDocumentFresh(flood[0])).toBe(false);
    expect(isDocumentFresh(flood.at(-1)!)).toBe(true);
  });

  it("only https URLs with a path are client_ids; loopback http only with the test setting; private addresses are not fetched", () => {
    expect(isClientIdUrl("https://app.example/client.json")).toBe(true);
    for (const id of ["https://app.example/", "https://app.example/a#f", "https://u:p@app.example/c", "https://app.example/a/../c", "http://app.example/c", "plain-client-id"]) expect(isClientIdUrl(id), id).toBe(false);
    expect(isClientIdUrl(`${docsOrigin}/c.json`)).toBe(true);
    delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK;
    try {
      expect(isClientIdUrl(`${docsOrigin}/c.json`)).toBe(false);
    } finally {
      // Back to this file's test-only setting (see beforeAll).
      process.env.OAUTH_CIMD_ALLOW_LOOPBACK = "true";
    }
    for (const address of ["10.1.2.3", "192.168.0.1", "169.254.169.254", "172.16.5.5", "127.0.0.1", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1",
      // the hex spelling URL parsing gives [::ffff:127.0.0.1] and [::ffff:169.254.169.254]; IPv4-compatible, NAT64, 6to4
      "::ffff:7f00:1", "::ffff:a9fe:a9fe", "::7f00:1", "64:ff9b:1::a00:1", "2002:a00:1::1",
      // deprecated site-local, IPv6 documentation, SRv6
      "fec0::1", "feff::1", "3fff::1", "5f00::1"]) {
      expect(isFetchableAddress(address, false), address).toBe(false);
    }
    expect(isFetchableAddress("127.0.0.1", true)).toBe(true);
    expect(isFetchableAddress("10.1.2.3", true)).toBe(false);
    expect(isFetchableAddress("93.184.216.34", false)).toBe(true);
    expect(isFetchableAddress("::ffff:5db8:d822", false)).toBe(true); // 93.184.216.34, mapped
    expect(isFetchableAddress("2606:2800:220:1::1", false)).toBe(true);
  });
});
