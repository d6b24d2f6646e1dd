import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24 point 7, first bullet: an upstream MCP server behind its own OAuth authorization
 * server (the MCP SDK's auth pieces, tests/helpers/oauth-upstream.ts) on 127.0.0.1. Each
 * person connects their own upstream account (discovery from the 401, dynamic registration,
 * PKCE, the callback bound to the person) and their `whoami` answers with their own identity;
 * a person with no connection is not sent upstream and gets the connect link; 5-second tokens
 * are refreshed unnoticed; a grant revoked upstream turns into needs_reconnect; leaving the
 * organization revokes; no token is stored in clear.
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let t: Tenant;
let connectorId: string;
let serverId: string;

beforeAll(async () => {
  app = await startRouteServer();
  // PUBLIC_URL: the connect link in MCP answers is made without a request, on the configured address.
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream({ accessTtlSec: 5 });
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await upstream?.close();
  await app?.close();
});

/** A person connects: the API's authorization URL, the upstream's sign-in page as `upstreamUser`, then our callback in their browser session. */
async function connect(actor: Tenant["admin"], upstreamUser: string): Promise<Response> {
  const started = await api(actor.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await signInUpstream(started.body.authorizationUrl, upstreamUser);
  expect(back.origin + back.pathname).toBe(`${app.origin}/api/connections/callback`);
  return fetch(back, { headers: { cookie: await sessionCookieFor(actor.user.id) }, redirect: "manual" });
}

async function whoami(bearer: string): Promise<{ text: string; isError: boolean; message: Record<string, any> }> {
  const list = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith("whoami"))!.name;
  const { message } = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/call", { name, arguments: {} });
  return { text: message.result?.content?.[0]?.text ?? "", isError: message.result?.isError === true, message };
}

describe("an upstream MCP server behind its own OAuth, per person", () => {
  it("is created without a connection; the first admin's connection discovers its tools", async () => {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.tools).toEqual([]);
    expect(created.body.auth).toEqual({ type: "oauth", connection: "per_user" });
    connectorId = created.body.id;
    serverId = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connectorId] })).body.id;

    const done = await connect(t.admin, "alice");
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("connected");
    expect(upstream.registrations).toBe(1);
    expect(upstream.resources.at(-1)).toBe(upstream.mcpUrl);
    const connector = await api(t.admin.token).get(`/api/v1/connectors/${connectorId}`);
    expect(connector.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["whoami"]);
  });

  it("two persons each act upstream as themselves", async () => {
    expect((await connect(t.member, "bob")).status).toBe(200);
    expect(upstream.registrations).toBe(1); // the registration is kept per connector
    expect((await whoami(t.admin.token)).text).toBe("upstream user: alice");
    expect((await whoami(t.member.token)).text).toBe("upstream user: bob");
    const mine = await api(t.member.token).get("/api/v1/me/connections");
    expect(mine.body.items).toMatchObject([{ connectorId, connectorName: "Upstream", connection: "per_user", status: "connected" }]);
    const all = await api(t.admin.token).get(`/api/v1/connectors/${connectorId}/connections`);
    expect(all.body.items.map((c: { user: { id: string } }) => c.user.id).sort()).toEqual([t.admin.user.id, t.member.user.id].sort());
  });

  it("a person without a connection is not sent upstream and gets the connect link; the instance credential is told to connect as a person", async () => {
    const before = upstream.issued.length;
    const answer = await whoami(t.owner.token);
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('"Upstream"');
    expect(answer.text).toContain(`${app.origin}/api/connections/start?connector=${connectorId}&person=${t.owner.user.id}`);
    expect(upstream.issued.length).toBe(before);
    const instance = await whoami(process.env.INSTANCE_API_KEY!);
    expect(instance.isError).toBe(true);
    expect(instance.text).toContain("as a person");
  });

  it("the connect link signs the person in, refuses another person, and goes on to the upstream", async () => {
    const link = `${app.origin}/api/connections/start?connector=${connectorId}&person=${t.owner.user.id}`;
    const anonymous = await fetch(link, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/signin\?callbackUrl=/);
    const other = await fetch(link, { headers: { cookie: await sessionCookieFor(t.member.user.id) }, redirect: "manual" });
    expect(other.status).toBe(403);
    const owner = await fetch(link, { headers: { cookie: await sessionCookieFor(t.owner.user.id) }, redirect: "manual" });
    expect(owner.status).toBe(302);
    const back = await signInUpstream(owner.headers.get("location")!, "carol");
    // Completed in another person's session: refused, and nothing is stored for either.
    const stolen = await fetch(back, { headers: { cookie: await sessionCookieFor(t.member.user.id) }, redirect: "manual" });
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain("another person");
    expect((await whoami(t.owner.token)).isError).toBe(true);
    expect((await whoami(t.member.token)).text).toBe("upstream user: bob");
    // The state was single use.
    const again = await fetch(back, { headers: { cookie: await sessionCookieFor(t.owner.user.id) }, redirect: "manual" });
    expect(again.status).toBe(400);
  });

  it("5-second access tokens are refreshed without the caller noticing", async () => {
    const refreshes = upstream.refreshes;
    await new Promise((r) => setTimeout(r, 6_000));
    const [a, b] = await Promise.all([whoami(t.admin.token), whoami(t.admin.token)]);
    expect(a.text).toBe("upstream user: alice");
    expect(b.text).toBe("upstream user: alice");
    // Concurrent calls shared one refresh (tools/list and tools/call of both went through one token).
    expect(upstream.refreshes - refreshes).toBe(1);
  }, 20_000);

  it("a grant revoked upstream turns into needs_reconnect, with the link to connect again", async () => {
    upstream.revokeUser("alice");
    const answer = await whoami(t.admin.token);
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain("connect again");
    const mine = await api(t.admin.token).get("/api/v1/me/connections");
    expect(mine.body.items[0].status).toBe("needs_reconnect");
    const audit = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connection.refresh_refused" } });
    expect(audit).toHaveLength(1);
  });

  it("the database holds no token in clear", async () => {
    const rows = await db().$queryRawUnsafe<{ dump: string }[]>(
      `SELECT string_agg(t::text, ' ') AS dump FROM (SELECT row_to_json(c)::text AS t FROM upstream_connections c UNION ALL SELECT row_to_json(s)::text FROM upstream_connection_starts s UNION ALL SELECT row_to_json(k)::text FROM connectors k UNION ALL SELECT row_to_json(a)::text FROM audit_events a) x`,
    );
    const dump = rows[0].dump;
    expect(dump.length).toBeGreaterThan(100);
    for (const token of upstream.issued) expect(dump).not.toContain(token);
  });

  it("leaving the organization removes the person's connections and revokes them upstream", async () => {
    const revocations = upstream.revocations;
    const removed = await api(t.admin.token).delete(`/api/v1/orgs/${t.org.id}/members/${t.member.user.id}`);
    expect(removed.status).toBe(204);
    expect(await db().upstreamConnection.count({ where: { connectorId, userId: t.member.user.id } })).toBe(0);
    expect(upstream.revocations).toBeGreaterThan(revocations);
  });

  it("another organization's connection is not found, and deleting the connector deletes its connections", async () => {
    const other = await createTenant();
    const [connection] = (await api(t.admin.token).get(`/api/v1/connectors/${connectorId}/connections`)).body.items;
    expect((await api(other.admin.token).delete(`/api/v1/connections/${connection.id}`)).status).toBe(404);
    expect((await api(other.admin.token).get(`/api/v1/connectors/${connectorId}/connections`)).status).toBe(404);
    expect((await api(t.admin.token).delete(`/api/v1/connectors/${connectorId}`)).status).toBe(204);
    expect(await db().upstreamConnection.count({ where: { connectorId } })).toBe(0);
  });
});
