import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { verifyMcpAccessToken } from "@/lib/oauth/mcp-access-token";
import { clientRedirectOf, consentRequest } from "@/lib/oauth/consent";
import { consentingUserId } from "@/lib/oauth/sign-in-bridge";
import { api } from "@/tests/helpers/api";
import { browserSessionOf, createHttpConnector, createMcpServer, createTenant, type Tenant } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { authorize, exchangeCode, pkce, postForm, redirectOf as redirectAt, REDIRECT, registerClient, sessionCookieFor, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * Issue 13 points 2 and 5: better-auth 1.7.5's OAuth provider on our Prisma 7 client serves
 * RFC 8414 metadata, dynamic registration, authorization code + PKCE (S256) with a resource
 * indicator, consent, token and refresh, over real HTTP. The user's session is the admin
 * console's own (one better-auth instance, one cookie).
 */

let app: RouteServer;
let site: OauthSite;
let metadata: Record<string, any>;

beforeAll(async () => {
  ({ app, site } = await startOauthSite());
  metadata = site.metadata;
});
afterAll(() => stopOauthSite(app));

const register = (body: Record<string, unknown>) => registerClient(site, body);
const redirectOf = (res: Response) => redirectAt(site, res);
const form = postForm;

/** A tenant whose workspace has one server (so /mcp has something to allow). */
async function tenantWithServer(): Promise<{ t: Tenant; serverId: string }> {
  const t = await createTenant();
  const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])]);
  return { t, serverId };
}

/** Authorize as `cookie`'s user for `resource`, allowing every server offered for /mcp. */
async function authorizationCode(clientId: string, cookie: string, challenge: string, resource: string, serverIds: string[] = []) {
  return authorize(site, { clientId, cookie, challenge, resource, choice: serverIds.length ? { server: serverIds } : {} });
}

describe("authorization server", () => {
  it("publishes RFC 8414 metadata at the root, issuer = this instance, PKCE S256 only, with a registration endpoint", () => {
    expect(metadata.issuer).toBe(app.origin);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.registration_endpoint).toBe(`${app.origin}/api/oauth/oauth2/register`);
    expect(metadata.token_endpoint_auth_methods_supported).toContain("none");
  });

  it("the metadata is JSON any origin may read; there is no OpenID document (no ID tokens): a JSON 404", async () => {
    const res = await fetch(`${app.origin}/.well-known/oauth-authorization-server`, { headers: { origin: "https://claude.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const oidc = await fetch(`${app.origin}/.well-known/openid-configuration`);
    expect(oidc.status).toBe(404);
    expect(await oidc.json()).toMatchObject({ error: "not_found" });
  });

  it("registration, authorization code with PKCE and consent, token bound to /mcp, refresh with rotation", async () => {
    const { t, serverId } = await tenantWithServer();
    const user = t.member.user;
    const cookie = await sessionCookieFor(user.id);
    const registered = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Test client", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], application_type: "native" });
    const client = await registered.json();
    expect(registered.status, JSON.stringify(client)).toBe(201);

    const resource = `${app.origin}/mcp`;
    const { verifier, challenge } = pkce();
    const first = pkce();
    const { code: burned, askedConsent } = await authorizationCode(client.client_id, cookie, first.challenge, resource, [serverId]);
    expect(askedConsent).toBe(true);
    // The consent is remembered: the second authorization goes straight back to the client.
    const { code, askedConsent: askedAgain } = await authorizationCode(client.client_id, cookie, challenge, resource, [serverId]);
    expect(askedAgain).toBe(false);
    const exchange = (c: string, v: string) => exchangeCode(site, { code: c, clientId: client.client_id, verifier: v, resource });

    const wrongVerifier = await exchange(burned, pkce().verifier);
    // RFC 7636 §4.6 (better-auth's own 401 invalid_request is put right in lib/oauth/serve-oauth.ts).
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" });

    // A failed attempt burns the code, even for the right verifier afterwards.
    expect((await exchange(burned, first.verifier)).status).toBe(400);
    const tokenRes = await exchange(code, verifier);
    const tokens = await tokenRes.json();
    expect(tokenRes.status, JSON.stringify(tokens)).toBe(200);
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe(resource);
    expect(claims.iss).toBe(app.origin);
    expect(claims.sub).toBe(user.id);
    expect(tokens.refresh_token).toBeTruthy();

    const refresh = (token: string) => form(metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: token, client_id: client.client_id, resource });
    const refreshed = await refresh(tokens.refresh_token);
    const next = await refreshed.json();
    expect(refreshed.status, JSON.stringify(next)).toBe(200);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(next.access_token).aud).toBe(resource);
    // Rotation: the old refresh token is spent.
    expect((await refresh(tokens.refresh_token)).status).toBe(400);

    // The code replayed: refused, and what it issued is revoked (RFC 6749 §4.1.2).
    const reused = await exchange(code, verifier);
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe("invalid_grant");
    expect((await refresh(next.refresh_token)).status).toBe(400);
  });

  it("a token for /mcp/<A> is bound to A: refused for server B and for /mcp; a resource of another site is refused", async () => {
    const { t, serverId: serverA } = await tenantWithServer();
    const serverB = await createMcpServer(t, [], "B");
    const user = t.member.user;
    const cookie = await sessionCookieFor(user.id);
    const client = await (await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Bound", application_type: "native" })).json();
    const { verifier, challenge } = pkce();
    const resource = `${app.origin}/mcp/${serverA}`;
    const { code } = await authorizationCode(client.client_id, cookie, challenge, resource);
    const tokenRes = await exchangeCode(site, { code, clientId: client.client_id, verifier, resource });
    const tokens = await tokenRes.json();
    expect(tokenRes.status, JSON.stringify(tokens)).toBe(200);
    expect(await verifyMcpAccessToken(tokens.access_token, { kind: "server", serverId: serverA }, app.origin)).toEqual({ sub: user.id, clientId: client.client_id, issuedAt: expect.any(Number) });
    expect(await verifyMcpAccessToken(tokens.access_token, { kind: "server", serverId: serverB }, app.origin)).toBeNull();
    expect(await verifyMcpAccessToken(tokens.access_token, { kind: "shared" }, app.origin)).toBeNull();
    expect(await verifyMcpAccessToken(`${tokens.access_token.slice(0, -4)}AAAA`, { kind: "server", serverId: serverA }, app.origin)).toBeNull();

    const authorize = new URL(metadata.authorization_endpoint);
    const params = { response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", scope: "mcp", state: "s2", resource: "https://elsewhere.example/mcp" };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const refused = await redirectOf(await fetch(authorize, { headers: { cookie }, redirect: "manual" }));
    expect(refused.origin + refused.pathname).toBe(REDIRECT);
    expect(refused.searchParams.get("error")).toBe("invalid_target");
    expect(refused.searchParams.get("code")).toBeNull();
  });

  it("a signed-in admin is carried into the authorization server, sees the client on the consent page, and allows or denies", async () => {
    const { t, serverId } = await tenantWithServer();
    const user = t.member.user;
    const browser = await browserSessionOf(user);
    const client = await (await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Claude Code", application_type: "native" })).json();
    const start = async (state: string) => {
      const authorize = new URL(metadata.authorization_endpoint);
      const params = { response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: "S256", scope: "mcp", state, resource: `${app.origin}/mcp` };
      for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
      const toLogin = await redirectOf(await fetch(authorize, { redirect: "manual" }));
      expect(toLogin.pathname).toBe("/oauth/continue");
      // Not signed in: to /signin, which comes back here afterwards.
      const anonymous = await fetch(new URL(toLogin.pathname + toLogin.search, app.origin), { redirect: "manual" });
      expect(anonymous.headers.get("location")).toBe(`/signin?callbackUrl=${encodeURIComponent(toLogin.pathname + toLogin.search)}`);
      const bridged = await fetch(new URL(toLogin.pathname + toLogin.search, app.origin), { headers: { cookie: browser.cookie }, redirect: "manual" });
      expect(bridged.status).toBe(302);
      // No second session: the admin's own cookie is the authorization server's.
      expect(bridged.headers.get("set-cookie")).toBeNull();
      const cookie = browser.cookie;
      const toConsent = await redirectOf(await fetch(new URL(bridged.headers.get("location")!, app.origin), { headers: { cookie }, redirect: "manual" }));
      expect(toConsent.pathname).toBe("/oauth/consent");
      return { cookie, search: toConsent.searchParams };
    };
    const decide = (cookie: string, oauthQuery: string, decision: string, fetchSite = "same-origin") =>
      fetch(`${app.origin}/oauth/consent/decide`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": fetchSite },
        body: new URLSearchParams({ oauth_query: oauthQuery, decision, server: serverId }),
        redirect: "manual",
      });

    const denied = await start("d1");
    expect(await consentingUserId(new Headers({ cookie: denied.cookie }))).toBe(user.id);
    const page = await consentRequest(denied.search, user.id, app.origin);
    expect(page).toMatchObject({ clientName: "Claude Code", clientHost: null, redirectHost: "127.0.0.1:9", scopes: ["mcp"], resource: `${app.origin}/mcp` });
    expect(page!.offer).toEqual({ kind: "shared", workspaces: [expect.objectContaining({ id: t.workspace.id, servers: [{ id: serverId, name: "Support" }] })] });
    expect((await decide(denied.cookie, page!.oauthQuery, "allow", "cross-site")).status).toBe(403);
    const no = await decide(denied.cookie, page!.oauthQuery, "deny");
    expect(no.status).toBe(200);
    const deniedAt = new URL(clientRedirectOf(await no.text())!);
    expect(deniedAt.searchParams.get("error")).toBe("access_denied");
    expect(deniedAt.searchParams.get("code")).toBeNull();

    const allowed = await start("a1");
    const yes = await decide(allowed.cookie, (await consentRequest(allowed.search, user.id, app.origin))!.oauthQuery, "allow");
    expect(yes.status).toBe(200);
    const back = new URL(clientRedirectOf(await yes.text())!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("a1");
    expect(back.searchParams.get("code")).toBeTruthy();
    // A tampered signed query is refused.
    expect((await decide(allowed.cookie, allowed.search.toString().replace("scope=mcp", "scope=offline_access"), "allow")).status).toBe(400);
  });

  it("the MCP endpoint a token was issued for serves its user as an API key of that user is served; every other endpoint answers 401", async () => {
    const t = await createTenant();
    const crm = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "CRM",
      config: { baseUrl: "https://api.example.com" },
      tools: ["get_customer", "list_customers"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } })),
    });
    expect(crm.status).toBe(201);
    const createServer = async () => (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [crm.body.id] })).body.id as string;
    const [serverA, serverB] = [await createServer(), await createServer()];
    const client = await (await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Cursor", application_type: "native" })).json();
    const { verifier, challenge } = pkce();
    const resource = `${app.origin}/mcp/${serverA}`;
    const { code } = await authorizationCode(client.client_id, await sessionCookieFor(t.admin.user.id), challenge, resource);
    const tokens = await (await exchangeCode(site, { code, clientId: client.client_id, verifier, resource })).json();

    const rpc = (path: string, bearer: string, method: string, params: object = {}) =>
      fetch(`${app.origin}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const body = async (res: Response) => {
      const text = await res.text();
      return JSON.parse(text.startsWith("event:") ? text.split("\n").find((l) => l.startsWith("data: "))!.slice(6) : text);
    };
    const viaToken = await rpc(`/mcp/${serverA}`, tokens.access_token, "initialize", init);
    expect(viaToken.status).toBe(200);
    expect((await body(viaToken)).result.serverInfo).toBeTruthy();
    const toolsViaToken = await body(await rpc(`/mcp/${serverA}`, tokens.access_token, "tools/list"));
    const toolsViaKey = await body(await rpc(`/mcp/${serverA}`, t.admin.token, "tools/list"));
    expect(toolsViaToken.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(["get_customer", "list_customers"]);
    expect(toolsViaToken.result).toEqual(toolsViaKey.result);

    for (const path of [`/mcp/${serverB}`, "/mcp"]) {
      const refused = await rpc(path, tokens.access_token, "initialize", init);
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get("www-authenticate"), path).toContain('error="invalid_token"');
    }
  });

  it("OAUTH_ENABLED=false switches it off: its metadata and endpoints are JSON 404s", async () => {
    try {
      // The setting under test: the authorization server switched off (it is on by default).
      process.env.OAUTH_ENABLED = "false";
      for (const path of ["/.well-known/oauth-authorization-server", "/api/oauth/oauth2/register", "/api/oauth/oauth2/authorize"]) {
        const res = await fetch(`${app.origin}${path}`);
        expect(res.status, path).toBe(404);
        expect((await res.json()).error, path).toBe("not_found");
      }
    } finally {
      process.env.OAUTH_ENABLED = "true";
    }
  });

  it("refuses a registration whose redirect URI is plain http on a public host", async () => {
    const res = await register({ redirect_uris: ["http://evil.example/cb"], token_endpoint_auth_method: "none", client_name: "x" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_redirect_uri");
  });
});
