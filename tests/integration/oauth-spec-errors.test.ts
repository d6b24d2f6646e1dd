import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair } from "jose";
import { symmetricEncrypt } from "better-auth/crypto";
import { db } from "@/lib/db/client";
import { authorizationServer, issuerOrigin } from "@/lib/oauth/authorization-server";
import { verifyMcpAccessToken } from "@/lib/oauth/mcp-access-token";
import { createHttpConnector, createMcpServer, createTenant, createUser } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { clientRedirectOf, consentRequest } from "@/lib/oauth/consent";
import { authorizationCode, authorizeUrl, decide, exchangeCode, pkce, postForm, publicClient, REDIRECT, registerClient, sessionCookieFor, startOauthSite, stopOauthSite, type OauthSite } from "@/tests/helpers/oauth-flow";

// This file registers dozens of clients from one address (127.0.0.1) within seconds, past the
// default budget of new OAuth clients per address (30 an hour); that budget has its own test
// (tests/integration/oauth-rate-limits.test.ts).
process.env.OAUTH_NEW_CLIENTS_PER_IP = "1000";

/**
 * Issue 13's negative cases at the authorization server: each refused with the error its
 * specification names, over real HTTP.
 */

let app: RouteServer;
let site: OauthSite;

beforeAll(async () => void ({ app, site } = await startOauthSite()));
afterAll(() => stopOauthSite(app));

async function signedInClient() {
  const t = await createTenant();
  const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])]);
  const user = t.member.user;
  return { user, cookie: await sessionCookieFor(user.id), client: await publicClient(site), choice: { server: [serverId] } };
}

describe("OAuth spec errors", () => {
  it("a PKCE mismatch is 400 invalid_grant (RFC 7636 §4.6), and burns the code; a reused code is 400 invalid_grant", async () => {
    const { cookie, client, choice } = await signedInClient();
    const resource = `${app.origin}/mcp`;
    const { verifier, challenge } = pkce();
    const code = await authorizationCode(site, { cookie, clientId: client.client_id, challenge, resource, choice });
    const wrong = await exchangeCode(site, { code, clientId: client.client_id, verifier: pkce().verifier, resource });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    expect(wrong.headers.get("www-authenticate")).toBeNull();
    expect((await exchangeCode(site, { code, clientId: client.client_id, verifier, resource })).status).toBe(400);

    const second = pkce();
    const good = await authorizationCode(site, { cookie, clientId: client.client_id, challenge: second.challenge, resource, choice });
    expect((await exchangeCode(site, { code: good, clientId: client.client_id, verifier: second.verifier, resource })).status).toBe(200);
    const reused = await exchangeCode(site, { code: good, clientId: client.client_id, verifier: second.verifier, resource });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe("invalid_grant");
  });

  it("an unregistered redirect URI or an open-redirect attempt is never redirected to: the browser stays on this site's error page", async () => {
    const { cookie, client } = await signedInClient();
    for (const redirect of ["https://evil.example/callback", "http://127.0.0.1:9/other", `${REDIRECT}/../../evil`, "//evil.example/callback"]) {
      const url = authorizeUrl(site, { client_id: client.client_id, code_challenge: pkce().challenge, resource: `${app.origin}/mcp`, redirect_uri: redirect });
      const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
      const location = res.headers.get("location") ?? (await res.json()).url;
      const target = new URL(location, app.origin);
      expect(target.origin, redirect).toBe(app.origin);
      expect(target.searchParams.get("error"), redirect).toMatch(/^invalid_re(direct|quest)$/);
      expect(target.searchParams.get("code")).toBeNull();
    }
    // The error page the browser lands on says so itself (RFC 6749 §4.1.2.1: inform the user, do not redirect).
    const page = await fetch(new URL(authorizeUrl(site, { client_id: client.client_id, code_challenge: pkce().challenge, redirect_uri: "https://evil.example/cb" })), { headers: { cookie }, redirect: "follow" });
    expect(new URL(page.url).origin).toBe(app.origin);
    expect(page.status).toBeLessThan(500);
    // An unknown client: the same, whatever redirect it names.
    const unknown = await fetch(authorizeUrl(site, { client_id: "no-such-client", code_challenge: pkce().challenge, redirect_uri: "https://evil.example/cb" }), { redirect: "manual" });
    expect(new URL(unknown.headers.get("location") ?? (await unknown.json()).url, app.origin).origin).toBe(app.origin);
  });

  it("registration takes exact https redirect URIs, or loopback http for native apps; never plain http elsewhere, fragments or script URLs", async () => {
    for (const uri of ["http://evil.example/cb", "http://10.0.0.5/cb", "https://app.example/cb#frag", "javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "https://user:pw@app.example/cb"]) {
      const res = await registerClient(site, { redirect_uris: [uri], token_endpoint_auth_method: "none", client_name: "x" });
      expect(res.status, uri).toBe(400);
      expect((await res.json()).error, uri).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
    }
    expect((await registerClient(site, { redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none", client_name: "web" })).status).toBe(201);
    expect((await registerClient(site, { redirect_uris: ["http://localhost:33418/callback"], token_endpoint_auth_method: "none", client_name: "native" })).status).toBe(201);
  });

  it("a native app's private-use scheme (RFC 8252 §7.1, as Cursor registers) is accepted, and the code goes back to it", async () => {
    const cursor = "cursor://anysphere.cursor-retrieval/oauth/user-switchboard/callback";
    const res = await registerClient(site, { redirect_uris: [cursor], token_endpoint_auth_method: "none", client_name: "Cursor", application_type: "native", grant_types: ["authorization_code", "refresh_token"] });
    const client = await res.json();
    expect(res.status, JSON.stringify(client)).toBe(201);
    expect(client.redirect_uris).toEqual([cursor]);
    // As Cursor sends it, without application_type: a native app all the same.
    expect((await registerClient(site, { redirect_uris: [cursor], token_endpoint_auth_method: "none", client_name: "Cursor" })).status).toBe(201);
    const { cookie, choice } = await signedInClient();
    const { verifier, challenge } = pkce();
    const resource = `${app.origin}/mcp`;
    // The stand-in it was registered under is not kept: the stored client has the URI as sent.
    expect(await db().oauthClient.findUnique({ where: { clientId: client.client_id }, select: { redirectUris: true } })).toEqual({ redirectUris: [cursor] });
    const start = await fetch(authorizeUrl(site, { client_id: client.client_id, code_challenge: challenge, resource, redirect_uri: cursor }), { headers: { cookie }, redirect: "manual" });
    const consent = new URL(start.headers.get("location") ?? (await start.json()).url, app.origin);
    expect(consent.pathname).toBe("/oauth/consent");
    // The consent page says where the answer goes: the app's scheme and authority.
    expect((await consentRequest(consent.searchParams, null, app.origin))?.redirectHost).toBe("cursor://anysphere.cursor-retrieval");
    const answer = await decide(site, cookie, consent.search.slice(1), choice);
    const html = await answer.text();
    const back = new URL(clientRedirectOf(html)!);
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(cursor);
    // The page on the way back names the app as the consent page did, not a look-alike web host.
    expect(html).toContain("Continue to cursor://anysphere.cursor-retrieval</a>");
    const token = await postForm(site.metadata.token_endpoint, { grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: cursor, client_id: client.client_id, code_verifier: verifier, resource });
    expect(token.status).toBe(200);
  });

  it("the consent page names a reverse-domain redirect URI (no host) by its scheme", async () => {
    const uri = "com.example.app:/oauth/callback";
    const res = await registerClient(site, { redirect_uris: [uri], token_endpoint_auth_method: "none", client_name: "Reverse", grant_types: ["authorization_code"] });
    const client = await res.json();
    expect(res.status, JSON.stringify(client)).toBe(201);
    const { cookie, choice } = await signedInClient();
    const start = await fetch(authorizeUrl(site, { client_id: client.client_id, code_challenge: pkce().challenge, resource: `${app.origin}/mcp`, redirect_uri: uri }), { headers: { cookie }, redirect: "manual" });
    const consent = new URL(start.headers.get("location") ?? (await start.json()).url, app.origin);
    expect(consent.pathname).toBe("/oauth/consent");
    expect(await consentRequest(consent.searchParams, null, app.origin)).toMatchObject({ clientName: "Reverse", redirectHost: "com.example.app" });
    // And the page that sends the browser back says where to, instead of "Continue to" nothing.
    const html = await (await decide(site, cookie, consent.search.slice(1), choice)).text();
    expect(clientRedirectOf(html)).toMatch(/^com\.example\.app:\/oauth\/callback\?/);
    expect(html).toContain("Continue to com.example.app</a>");
  });

  it("browser-internal and script schemes are refused at registration, native or not", async () => {
    const refused = ["intent://callback#Intent;scheme=x;end", "intent://callback", "chrome://settings/cb", "view-source:https://app.example/cb", "filesystem:https://app.example/temporary/cb", "blob:https://app.example/uuid", "about:blank", "ws://127.0.0.1/cb", "wss://app.example/cb", "file:///tmp/cb", "vbscript:msgbox"];
    for (const uri of refused) {
      for (const application_type of [undefined, "native"]) {
        const res = await registerClient(site, { redirect_uris: [uri], token_endpoint_auth_method: "none", client_name: "x", application_type });
        expect(res.status, `${uri} ${application_type}`).toBe(400);
        expect((await res.json()).error, uri).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
      }
    }
    // Next to an acceptable one, too: the whole registration is refused.
    expect((await registerClient(site, { redirect_uris: ["http://127.0.0.1:8080/cb", "intent://callback"], token_endpoint_auth_method: "none", client_name: "x" })).status).toBe(400);
    for (const uri of ["vscode://vscode.github-authentication/did-authenticate", "com.example.app:/oauth/callback", "http://[::1]:4000/callback"]) {
      expect((await registerClient(site, { redirect_uris: [uri], token_endpoint_auth_method: "none", client_name: "ok" })).status, uri).toBe(201);
    }
  });

  it("the stand-in a private-use URI is registered under never meets a client's own URI", async () => {
    // The stand-in's scheme is reserved: no client registers it.
    for (const uri of ["app.switchboard.stand-in:/callback", "app.switchboard.stand-in.r00x0:/callback", "App.Switchboard.Stand-In.x:/callback"]) {
      const res = await registerClient(site, { redirect_uris: [uri, "cursor://anysphere.cursor-retrieval/cb"], token_endpoint_auth_method: "none", client_name: "x" });
      expect(res.status, uri).toBe(400);
      expect((await res.json()).error).toBe("invalid_redirect_uri");
    }
    // A client's own reverse-domain URI shaped like an index-numbered stand-in comes back as sent, next to the private-use one.
    const uris = ["app.switchboard.registering1:/callback", "cursor://anysphere.cursor-retrieval/cb"];
    const res = await registerClient(site, { redirect_uris: uris, token_endpoint_auth_method: "none", client_name: "two" });
    const client = await res.json();
    expect(res.status).toBe(201);
    expect(client.redirect_uris).toEqual(uris);
    expect((await db().oauthClient.findUniqueOrThrow({ where: { clientId: client.client_id } })).redirectUris).toEqual(uris);
  });

  it("an expired token, and one from another issuer, are refused by the MCP endpoint check", async () => {
    const user = await createUser("oauth-exp");
    const server = authorizationServer();
    const now = Math.floor(Date.now() / 1000);
    const sign = async (payload: Record<string, unknown>) => (await server.api.signJWT({ body: { payload } })).token;
    const base = { sub: user.id, azp: "some-client", aud: `${issuerOrigin()}/mcp/server-a`, iss: issuerOrigin() };
    expect(await verifyMcpAccessToken(await sign({ ...base, iat: now, exp: now + 600 }), { kind: "server", serverId: "server-a" }, issuerOrigin())).toMatchObject({ sub: user.id });
    expect(await verifyMcpAccessToken(await sign({ ...base, iat: now - 7200, exp: now - 3600 }), { kind: "server", serverId: "server-a" }, issuerOrigin())).toBeNull();
    expect(await verifyMcpAccessToken(await sign({ ...base, iss: "https://elsewhere.example", iat: now, exp: now + 600 }), { kind: "server", serverId: "server-a" }, issuerOrigin())).toBeNull();
  });

  it("a signing key written under another AUTH_SECRET is no 500: a fresh key is made and tokens are issued and verify", async () => {
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    await db().jwks.create({
      data: {
        publicKey: JSON.stringify(await exportJWK(publicKey)),
        privateKey: JSON.stringify(await symmetricEncrypt({ key: "a-secret-this-instance-no-longer-has-000", data: JSON.stringify(await exportJWK(privateKey)) })),
        createdAt: new Date(Date.now() + 60_000), // the newest: the one better-auth would pick
        alg: "EdDSA",
        crv: "Ed25519",
      },
    });
    const { cookie, client, choice } = await signedInClient();
    const resource = `${app.origin}/mcp`;
    const { verifier, challenge } = pkce();
    const code = await authorizationCode(site, { cookie, clientId: client.client_id, challenge, resource, choice });
    const res = await exchangeCode(site, { code, clientId: client.client_id, verifier, resource });
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    const refreshed = await postForm(site.metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id, resource });
    expect(refreshed.status).toBe(200);
  });
});
