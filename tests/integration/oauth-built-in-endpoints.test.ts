import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createHttpConnector, createMcpServer, createTenant } from "@/tests/helpers/factories";
import type { RouteServer } from "@/tests/helpers/route-server";
import { mcpRpc, postForm, publicClient, sessionCookieFor, startOauthSite, stopOauthSite, tokensFor, type OauthSite } from "@/tests/helpers/oauth-flow";

/**
 * Under /api/oauth only the authorization server's endpoints are served. better-auth's other
 * built-ins take the console's session cookie: get-session and list-sessions would hand out raw
 * session tokens, update-user would rename without an audit event, revoke-other-sessions would
 * work outside the account page.
 */

let app: RouteServer;
let site: OauthSite;

beforeAll(async () => void ({ app, site } = await startOauthSite()));
afterAll(() => stopOauthSite(app));

const BUILT_INS: [method: "GET" | "POST", path: string, body?: object][] = [
  ["GET", "/get-session"],
  ["GET", "/list-sessions"],
  ["POST", "/update-user", { name: "Renamed by a built-in" }],
  ["POST", "/revoke-other-sessions", {}],
  ["POST", "/revoke-sessions", {}],
  ["POST", "/sign-out", {}],
  ["POST", "/sign-in/email", { email: "nobody@example.com", password: "x" }],
  ["GET", "/token"],
  ["GET", "/oauth2/userinfo"],
  ["GET", "/oauth2/get-clients"],
  ["GET", "/oauth2/get-consents"],
  ["GET", "/oauth2/continue"],
];

describe("better-auth's built-in endpoints under /api/oauth", () => {
  it("the session, user and other built-ins are a JSON 404 even with a console session, and change nothing", async () => {
    const t = await createTenant();
    const cookie = await sessionCookieFor(t.member.user.id);
    const other = await sessionCookieFor(t.member.user.id);
    const before = await db().user.findUniqueOrThrow({ where: { id: t.member.user.id }, select: { name: true } });
    for (const [method, path, body] of BUILT_INS) {
      const res = await fetch(`${app.origin}/api/oauth${path}`, {
        method,
        headers: { cookie, origin: app.origin, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      const text = await res.text();
      expect(JSON.parse(text), path).toMatchObject({ error: "not_found" });
      expect(text, path).not.toContain(cookie.split("=")[1].split(".")[0]);
    }
    expect(await db().user.findUniqueOrThrow({ where: { id: t.member.user.id }, select: { name: true } })).toEqual(before);
    // The other session still works: revoke-other-sessions did nothing.
    const stillIn = await fetch(`${app.origin}/api/v1/orgs/${t.org.id}`, { headers: { cookie: other } });
    expect(stillIn.status).toBe(200);
  });

  it("the authorization server's own endpoints still serve a full flow: register, authorize, token, MCP call, revoke, jwks", async () => {
    const t = await createTenant();
    const serverId = await createMcpServer(t, [await createHttpConnector(t, "CRM", ["get_customer"])]);
    const client = await publicClient(site);
    const resource = `${app.origin}/mcp/${serverId}`;
    const tokens = await tokensFor(site, { cookie: await sessionCookieFor(t.member.user.id), clientId: client.client_id, resource, choice: { server: [serverId] } });
    expect((await mcpRpc(app.origin, `/mcp/${serverId}`, tokens.access_token, "tools/list")).status).toBe(200);
    const jwks = await fetch(site.metadata.jwks_uri as string);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const revoked = await postForm(site.metadata.revocation_endpoint as string, { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: client.client_id });
    expect(revoked.status).toBe(200);
    const refresh = await postForm(site.metadata.token_endpoint as string, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id, resource });
    expect(refresh.status).toBe(400);
  });
});
