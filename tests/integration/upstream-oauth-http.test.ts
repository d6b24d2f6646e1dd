import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { CC_CLIENT, signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 7, second bullet: `http` connectors to an API behind OAuth on 127.0.0.1 —
 * one with `client_credentials` (machine to machine, the secret write-only), one with
 * `per_user` OAuth naming its authorization server (an issuer with metadata) and the client
 * the admin registered there. A client secret belongs to its client ID: a PATCH that clears the
 * ID drops the stored secret.
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;

beforeAll(async () => {
  app = await startRouteServer();
  // PUBLIC_URL: the connect link in MCP answers is made without a request, on the configured address.
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream();
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstream?.close();
  await app?.close();
});

const ME_TOOL = [{ name: "me", request: { method: "GET", path: "/api/me" } }];

async function callMe(serverId: string, bearer: string): Promise<{ text: string; isError: boolean }> {
  const list = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith("me"))!.name;
  const { message } = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/call", { name, arguments: {} });
  const text: string = message.result?.content?.[0]?.text ?? "";
  // The API's JSON comes back pretty-printed: compare what it says.
  return { text: text.startsWith("{") ? JSON.stringify(JSON.parse(text)) : text, isError: message.result?.isError === true };
}

describe("http connectors behind OAuth", () => {
  it("client_credentials: every caller acts as the machine client; the secret is never answered", async () => {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "Machine API",
      config: { baseUrl: upstream.origin },
      auth: { type: "client_credentials", tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id, clientSecret: CC_CLIENT.secret, scopes: ["read"], audience: "https://api.example" },
      tools: ME_TOOL,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.auth).toEqual({ type: "client_credentials", tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id, scopes: ["read"], audience: "https://api.example", hasClientSecret: true });
    expect(JSON.stringify(created.body)).not.toContain(CC_CLIENT.secret);
    const serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Machine", connectorIds: [created.body.id] })).body.id;
    expect(await callMe(serverId, t.member.token)).toEqual({ text: JSON.stringify({ user: `machine:${CC_CLIENT.id}` }), isError: false });
    expect(await callMe(serverId, t.admin.token)).toEqual({ text: JSON.stringify({ user: `machine:${CC_CLIENT.id}` }), isError: false });
    // The token is cached until shortly before it expires: one token request for both calls.
    expect(upstream.ccRequests).toEqual([{ grant_type: "client_credentials", scope: "read", audience: "https://api.example" }]);
    // A PATCH without the secret keeps it.
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { auth: { type: "client_credentials", tokenUrl: `${upstream.origin}/cc/token`, clientId: CC_CLIENT.id } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.auth.hasClientSecret).toBe(true);
    expect((await callMe(serverId, t.member.token)).text).toBe(JSON.stringify({ user: `machine:${CC_CLIENT.id}` }));
  });

  it("per_user OAuth with the admin's client at a named authorization server: each person's calls carry their token", async () => {
    // The issuer exactly as the server names itself (the SDK's router ends it with a slash): metadata is checked against it.
    const registered = await fetch(`${upstream.origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [`${app.origin}/api/connections/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], client_name: "Admin's client" }),
    }).then((r) => r.json());
    const registrations = upstream.registrations;
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "People API",
      config: { baseUrl: upstream.origin },
      auth: { type: "oauth", connection: "per_user", clientId: registered.client_id, authorizationServer: `${upstream.origin}/` },
      tools: ME_TOOL,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "People", connectorIds: [created.body.id] })).body.id;
    const before = await callMe(serverId, t.member.token);
    expect(before.isError).toBe(true);
    expect(before.text).toContain("/api/connections/start?connector=");

    const started = await api(t.member.token).post(`/api/v1/connectors/${created.body.id}/connections`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(new URL(started.body.authorizationUrl).searchParams.get("client_id")).toBe(registered.client_id);
    expect(new URL(started.body.authorizationUrl).searchParams.get("code_challenge_method")).toBe("S256");
    // No RFC 9728 metadata for a plain API: the resource (RFC 8707) is still its canonical URL,
    // written as the MCP authorization spec writes one (no trailing "/" without a path).
    expect(new URL(started.body.authorizationUrl).searchParams.get("resource")).toBe(upstream.origin);
    const back = await signInUpstream(started.body.authorizationUrl, "dora");
    const done = await fetch(back, { headers: { cookie: await sessionCookieFor(t.member.user.id) }, redirect: "manual" });
    expect(done.status).toBe(200);
    expect(upstream.registrations).toBe(registrations); // the admin's client: no registration
    expect(await callMe(serverId, t.member.token)).toEqual({ text: JSON.stringify({ user: "dora" }), isError: false });
    expect((await callMe(serverId, t.admin.token)).isError).toBe(true);

    // A changed client asks everyone to connect again.
    await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { auth: { type: "oauth", connection: "per_user", clientId: "another-client", authorizationServer: `${upstream.origin}/` } });
    const mine = await api(t.member.token).get("/api/v1/me/connections");
    expect(mine.body.items.find((c: { connectorId: string }) => c.connectorId === created.body.id).status).toBe("needs_reconnect");
  });

  it("per_user OAuth by endpoints only: the issuer is not invented, so an RFC 9207 `iss` with a path (a Keycloak realm) is accepted", async () => {
    const registered = await fetch(`${upstream.origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [`${app.origin}/api/connections/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], client_name: "Endpoints client" }),
    }).then((r) => r.json());
    const auth = { type: "oauth", connection: "per_user", clientId: registered.client_id, authorizationEndpoint: `${upstream.origin}/authorize`, tokenEndpoint: `${upstream.origin}/token` };
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Realm API", config: { baseUrl: upstream.origin }, auth, tools: ME_TOOL });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Realm", connectorIds: [created.body.id] })).body.id;
    const started = await api(t.member.token).post(`/api/v1/connectors/${created.body.id}/connections`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const back = await signInUpstream(started.body.authorizationUrl, "erin");
    back.searchParams.set("iss", `${upstream.origin}/realms/x`);
    const done = await fetch(back, { headers: { cookie: await sessionCookieFor(t.member.user.id) }, redirect: "manual" });
    expect(done.status).toBe(200);
    expect(await callMe(serverId, t.member.token)).toEqual({ text: JSON.stringify({ user: "erin" }), isError: false });
  });

  it("an OAuth connector whose client ID a PATCH clears or changes keeps no client secret (answered, stored and audited)", async () => {
    const auth = { type: "oauth", connection: "per_user", authorizationServer: `${upstream.origin}/`, scopes: ["read"] };
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Secret API", config: { baseUrl: upstream.origin }, auth: { ...auth, clientId: "admins-client", clientSecret: "s3cret-of-admins-client" }, tools: ME_TOOL });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const stored = () => db().connector.findFirstOrThrow({ where: { id, orgId: t.org.id }, select: { auth: true, authSecret: true } });
    // Leaving the secret out while the client ID stays keeps it.
    const kept = await api(t.admin.token).patch(`/api/v1/connectors/${id}`, { auth: { ...auth, clientId: "admins-client", scopes: ["read", "write"] } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.auth.hasClientSecret).toBe(true);
    expect((await stored()).authSecret).not.toBeNull();

    // Another client ID without a secret: the old secret is not sent for the new client.
    const moved = await api(t.admin.token).patch(`/api/v1/connectors/${id}`, { auth: { ...auth, clientId: "another-client" } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.auth.hasClientSecret ?? false).toBe(false);
    expect((await stored()).authSecret).toBeNull();
    const back = await api(t.admin.token).patch(`/api/v1/connectors/${id}`, { auth: { ...auth, clientId: "admins-client", clientSecret: "s3cret-of-admins-client" } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);

    // Clearing the client ID (the secret left out, which would otherwise keep it) drops the secret too.
    const cleared = await api(t.admin.token).patch(`/api/v1/connectors/${id}`, { auth });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.auth.clientId).toBeUndefined();
    expect(cleared.body.auth.hasClientSecret ?? false).toBe(false);
    const read = await api(t.admin.token).get(`/api/v1/connectors/${id}`);
    expect(read.body.auth).toEqual({ ...auth, connection: "per_user" });
    const row = await stored();
    expect(row.authSecret).toBeNull();
    expect(row.auth).not.toHaveProperty("hasClientSecret");
    expect(JSON.stringify(row.auth)).not.toContain("s3cret");
    const audit = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connector.update", targetId: id }, orderBy: { createdAt: "asc" } });
    expect(audit).toHaveLength(4);
    expect(audit[3].data).toMatchObject({ fields: ["auth"] });
    expect(JSON.stringify(audit)).not.toContain("s3cret");
  });

  it("an http connector with oauth must name its authorization server (422)", async () => {
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Nameless", config: { baseUrl: upstream.origin }, auth: { type: "oauth", connection: "shared" }, tools: ME_TOOL });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain("auth.authorizationServer");
  });
});
