import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * A `shared` connector's one account is connected by an owner or admin. When the upstream asks
 * it for a wider scope (403 insufficient_scope) on a member's call, the connection stays
 * connected for everyone's other calls (no member can cut the connector off), the scope is kept
 * for the admin's next connect and audited, and the member is told an owner or admin must
 * connect it again — without a link that would answer them 403; an admin gets the link. A shared
 * connector nobody connected yet says the same to a member. A database failure while marking a
 * step-up still answers the connect answer.
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;

beforeAll(async () => {
  app = await startRouteServer();
  // The connect links and the OAuth callback are made on the test server's own origin (the path without
  // PUBLIC_URL has its own test: upstream-oauth-origins.test.ts).
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream({ stepUpTool: true });
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstream?.close();
  await app?.close();
});

const TOOLS = [
  { name: "write_note", request: { method: "POST", path: "/api/notes" } },
  { name: "me", request: { method: "GET", path: "/api/me" } },
];
const START = "/api/connections/start";
const linkOf = (connectorId: string, userId: string) => `${app.origin}${START}?connector=${connectorId}&person=${userId}`;

async function registeredClient(): Promise<string> {
  const registered = await fetch(`${upstream.origin}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [`${app.origin}/api/connections/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
  }).then((r) => r.json());
  return registered.client_id;
}

async function sharedHttpConnector(name: string): Promise<{ connectorId: string; serverId: string }> {
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    config: { baseUrl: upstream.origin },
    auth: { type: "oauth", connection: "shared", clientId: await registeredClient(), authorizationServer: `${upstream.origin}/`, scopes: ["read"] },
    tools: TOOLS,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name, connectorIds: [created.body.id] });
  return { connectorId: created.body.id, serverId: server.body.id };
}

async function connect(connectorId: string, actor: Tenant["admin"], upstreamUser: string): Promise<string> {
  const started = await api(actor.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await signInUpstream(started.body.authorizationUrl, upstreamUser);
  expect((await fetch(back, { headers: { cookie: await sessionCookieFor(actor.user.id) }, redirect: "manual" })).status).toBe(200);
  return new URL(started.body.authorizationUrl).searchParams.get("scope") ?? "";
}

async function callTool(serverId: string, bearer: string, suffix: string): Promise<{ text: string; isError: boolean }> {
  const list = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith(suffix))!.name;
  const { message } = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/call", { name, arguments: {} });
  return { text: message.result?.content?.[0]?.text ?? JSON.stringify(message), isError: message.result?.isError === true };
}

const statusOf = async (connectorId: string) => (await db().upstreamConnection.findFirstOrThrow({ where: { connectorId }, select: { status: true } })).status;

describe("a shared connector's account", () => {
  it("a member's step-up keeps it connected for everyone, tells the member an owner or admin must reconnect (no link), gives the admin the link", async () => {
    const { connectorId, serverId } = await sharedHttpConnector("Shared notes");
    await connect(connectorId, t.admin, "alice");

    const refused = await callTool(serverId, t.member.token, "write_note");
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("shared account");
    expect(refused.text).toContain('scope "read write"');
    expect(refused.text).toContain("owner or admin");
    expect(refused.text).not.toContain(START);
    // Not cut off: the connection stays, and its other calls still work for everyone.
    expect(await statusOf(connectorId)).toBe("connected");
    expect((await callTool(serverId, t.member.token, "me")).text).toContain("alice");
    const audit = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connection.step_up", targetId: connectorId } });
    expect(audit).toHaveLength(1);
    // The admin's list of the connector's connections says the account needs more access.
    const listed = await api(t.admin.token).get(`/api/v1/connectors/${connectorId}/connections`);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({ status: "connected", scopes: ["read"] });
    expect([...listed.body.items[0].stepUpScopes].sort()).toEqual(["read", "write"]);

    const admin = await callTool(serverId, t.admin.token, "write_note");
    expect(admin.isError).toBe(true);
    expect(admin.text).toContain(linkOf(connectorId, t.admin.user.id));
    expect(admin.text).toContain('scope "read write"');

    // The admin's next connect asks for the wider scope; then the member's call goes through.
    expect((await connect(connectorId, t.admin, "alice")).split(" ").sort()).toEqual(["read", "write"]);
    const done = await callTool(serverId, t.member.token, "write_note");
    expect(done.isError).toBe(false);
    expect(done.text).toContain("alice");
  });

  it("not connected yet: a member is told an owner or admin must connect it (no link); an admin gets the link", async () => {
    const { connectorId, serverId } = await sharedHttpConnector("Shared unconnected");
    const member = await callTool(serverId, t.member.token, "me");
    expect(member.isError).toBe(true);
    expect(member.text).toContain("owner or admin");
    expect(member.text).not.toContain("You have not connected");
    expect(member.text).not.toContain(START);
    const admin = await callTool(serverId, t.admin.token, "me");
    expect(admin.isError).toBe(true);
    expect(admin.text).toContain(linkOf(connectorId, t.admin.user.id));
  });
});

describe("a step-up whose marking fails in the database", () => {
  it("still answers the connect answer naming the scope (sendUpstream never throws)", async () => {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Admin upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connectorId = created.body.id;
    const serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Admin upstream", connectorIds: [connectorId] })).body.id;
    await connect(connectorId, t.admin, "alice");
    await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION fix24a_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'connection rows are read-only now'; END $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(`CREATE TRIGGER fix24a_refuse BEFORE UPDATE ON upstream_connections FOR EACH ROW EXECUTE FUNCTION fix24a_refuse()`);
    try {
      const answer = await callTool(serverId, t.admin.token, "admin_action");
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('scope "profile admin"');
      expect(answer.text).toContain(linkOf(connectorId, t.admin.user.id));
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER fix24a_refuse ON upstream_connections`);
      await db().$executeRawUnsafe(`DROP FUNCTION fix24a_refuse()`);
    }
  });
});
