import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { mcpRpc, sessionCookieFor } from "@/tests/helpers/oauth-flow";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { signInUpstream, startOAuthUpstream, type OAuthUpstream } from "@/tests/helpers/oauth-upstream";

/**
 * Issue 24: a person's upstream token is "sent only to the connector's own origin". Moving a
 * connector to another origin (an mcp `url` by PATCH, an http `baseUrl` by config apply) marks
 * every connection `needs_reconnect` and drops the client registrations: the next call gets the
 * connect answer and the new host receives no token. A path change on the same origin keeps
 * the connections. Behind that, a connection whose tokens were made for another origin than
 * the one a request goes to is never used (a URL changed by any other way).
 */

let app: RouteServer;
let upstream: OAuthUpstream;
let elsewhere: { origin: string; authorizations: string[]; close(): Promise<void> };
let t: Tenant;

/** Another host: records every Authorization header it receives and answers 401. */
async function startRecorder(): Promise<typeof elsewhere> {
  const authorizations: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.headers.authorization) authorizations.push(req.headers.authorization);
    res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, authorizations, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  app = await startRouteServer();
  // The connect links and the OAuth callback are made on the test server's own origin (the path without
  // PUBLIC_URL has its own test: upstream-oauth-origins.test.ts).
  process.env.PUBLIC_URL = app.origin;
  upstream = await startOAuthUpstream();
  elsewhere = await startRecorder();
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.PUBLIC_URL;
  await elsewhere?.close();
  await upstream?.close();
  await app?.close();
});

async function connect(connectorId: string, actor: Tenant["admin"], upstreamUser: string): Promise<void> {
  const started = await api(actor.token).post(`/api/v1/connectors/${connectorId}/connections`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await signInUpstream(started.body.authorizationUrl, upstreamUser);
  expect((await fetch(back, { headers: { cookie: await sessionCookieFor(actor.user.id) }, redirect: "manual" })).status).toBe(200);
}

async function callTool(serverId: string, bearer: string, suffix: string): Promise<{ text: string; isError: boolean }> {
  const list = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/list");
  const name = (list.message.result.tools as { name: string }[]).find((tool) => tool.name.endsWith(suffix))!.name;
  const { message } = await mcpRpc(app.origin, `/mcp/${serverId}`, bearer, "tools/call", { name, arguments: {} });
  return { text: message.result?.content?.[0]?.text ?? JSON.stringify(message), isError: message.result?.isError === true };
}

async function statuses(connectorId: string): Promise<string[]> {
  return (await db().upstreamConnection.findMany({ where: { connectorId }, orderBy: { id: "asc" }, select: { status: true } })).map((r) => r.status);
}

const clientState = async (connectorId: string) => (await db().connector.findFirstOrThrow({ where: { id: connectorId }, select: { oauthClientState: true } })).oauthClientState;
const noTokenReachedElsewhere = () => {
  for (const token of upstream.issued) expect(elsewhere.authorizations.join(" ")).not.toContain(token);
};

async function serverOf(connectorId: string): Promise<string> {
  return (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: `S-${connectorId.slice(-6)}`, connectorIds: [connectorId] })).body.id;
}

describe("a connector moved to another origin", () => {
  it("mcp url by PATCH: a path change keeps the connections; another origin asks everyone to connect again and sends no token there", async () => {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Moving", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connectorId = created.body.id;
    const serverId = await serverOf(connectorId);
    await connect(connectorId, t.admin, "alice");
    await connect(connectorId, t.member, "bob");
    expect(await clientState(connectorId)).not.toBeNull();
    expect(await callTool(serverId, t.member.token, "whoami")).toEqual({ text: "upstream user: bob", isError: false });

    // Same origin, another address: the tokens are still for this host.
    const samePlace = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { config: { url: `${upstream.mcpUrl}?tenant=1` } });
    expect(samePlace.status, JSON.stringify(samePlace.body)).toBe(200);
    expect(await statuses(connectorId)).toEqual(["connected", "connected"]);
    expect(await callTool(serverId, t.member.token, "whoami")).toEqual({ text: "upstream user: bob", isError: false });

    const moved = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { config: { url: `${elsewhere.origin}/mcp` } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await statuses(connectorId)).toEqual(["needs_reconnect", "needs_reconnect"]);
    expect(await clientState(connectorId)).toBeNull();
    const answer = await callTool(serverId, t.member.token, "whoami");
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`/api/connections/start?connector=${connectorId}&person=${t.member.user.id}`);
    expect(elsewhere.authorizations).toEqual([]);
  });

  it("http baseUrl by config apply: the connections need a reconnect and the new host gets no token", async () => {
    const registered = await fetch(`${upstream.origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [`${app.origin}/api/connections/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
    }).then((r) => r.json());
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "Me API",
      config: { baseUrl: upstream.origin },
      auth: { type: "oauth", connection: "per_user", clientId: registered.client_id, authorizationServer: `${upstream.origin}/` },
      tools: [{ name: "me", request: { method: "GET", path: "/api/me" } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connectorId = created.body.id;
    const serverId = await serverOf(connectorId);
    await connect(connectorId, t.owner, "carol");
    expect((await callTool(serverId, t.owner.token, "me")).text).toContain("carol");

    const doc = (await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`, { headers: { accept: "application/json" } })).body;
    const changed = { ...doc, connectors: doc.connectors.map((c: Record<string, unknown>) => (c.slug === created.body.slug ? { ...c, baseUrl: elsewhere.origin } : c)) };
    const applied = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/apply`, changed);
    expect(applied.status, applied.text).toBe(200);
    expect(await statuses(connectorId)).toEqual(["needs_reconnect"]);
    const answer = await callTool(serverId, t.owner.token, "me");
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`/api/connections/start?connector=${connectorId}&person=${t.owner.user.id}`);
    expect(elsewhere.authorizations).toEqual([]);
  });

  it("a URL changed behind the API's back: the connection made for the old origin is not used", async () => {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Sneaky", config: { url: upstream.mcpUrl }, auth: { type: "oauth", connection: "per_user" } });
    const connectorId = created.body.id;
    const serverId = await serverOf(connectorId);
    await connect(connectorId, t.admin, "alice");
    expect(await callTool(serverId, t.admin.token, "whoami")).toEqual({ text: "upstream user: alice", isError: false });

    // Neither PATCH nor apply: the row and the version changed directly.
    await db().connector.updateMany({ where: { id: connectorId }, data: { config: { url: `${elsewhere.origin}/mcp` } } });
    await db().organization.updateMany({ where: { id: t.org.id }, data: { configVersion: { increment: 1 } } });
    const answer = await callTool(serverId, t.admin.token, "whoami");
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain("connect again");
    expect(elsewhere.authorizations).toEqual([]);
    expect(await statuses(connectorId)).toEqual(["needs_reconnect"]);
    noTokenReachedElsewhere();
  });
});
