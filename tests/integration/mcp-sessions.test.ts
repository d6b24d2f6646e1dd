import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { findSession, liveSessionCount } from "@/lib/mcp/serve/connection-state/sessions";
import { runShutdownHooks } from "@/lib/ops/shutdown";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2, postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * MCP_STATEFUL_SESSIONS=true: 2025-era sessions bound to their server and credential, tools
 * reconciled with configuration changes (tools/list_changed), resources and instructions
 * frozen at initialize (seed 004 "Stateful sessions"), 404 for unknown or foreign ids, DELETE,
 * idle eviction and the session cap. Also: 2026-era subscribers are told through the SDK.
 */

process.env.MCP_STATEFUL_SESSIONS = "true";
// Live sessions look for configuration changes this often (the default is 2 s).
process.env.MCP_RECONCILE_INTERVAL_MS = "100";

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());
afterEach(() => {
  for (const name of ["MCP_SESSION_IDLE_MIN", "MCP_MAX_SESSIONS"]) delete process.env[name];
  // Back to the file's mode (set above): sessions are what it tests.
  process.env.MCP_STATEFUL_SESSIONS = "true";
});

async function connector(t: Tenant, name: string, tools: string[]) {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    instructions: `${name} notes.`,
    config: { baseUrl: "https://api.example.com" },
    tools: tools.map((tool) => ({ name: tool, request: { method: "GET", path: `/${tool}` } })),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function scenario() {
  const t = await createTenant();
  const crm = await connector(t, "CRM", ["get_customer"]);
  const billing = await connector(t, "Billing", ["list_invoices"]);
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", instructions: "Server notes.", connectorIds: [crm] });
  expect(res.status, res.text).toBe(201);
  return { t, crm, billing, serverId: res.body.id as string, url: `${app.origin}/mcp/${res.body.id}` };
}

const reassign = async (t: Tenant, serverId: string, connectorIds: string[]) =>
  expect((await api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds })).status).toBe(200);

const LIST = { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} };
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

describe("stateful sessions (MCP_STATEFUL_SESSIONS=true)", () => {
  it("a live session sees a reassigned connector's tools change and receives tools/list_changed", async () => {
    const { t, crm, billing, serverId, url } = await scenario();
    const { client, transport, close } = await connectV1(url, t.admin.token);
    try {
      expect(transport.sessionId).toEqual(expect.any(String));
      const changed = vi.fn();
      client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer"]);

      await reassign(t, serverId, [billing]);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["list_invoices"]);

      // Seed 004: resources and instructions stay as they were at initialize.
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain(`anythingmcp://server/${serverId}/connector/${crm}/instructions`);
      expect(uris).not.toContain(`anythingmcp://server/${serverId}/connector/${billing}/instructions`);
      const instructions = await client.readResource({ uri: `anythingmcp://server/${serverId}/instructions` });
      expect((instructions.contents[0] as { text: string }).text).toBe("Server notes.\n\n## CRM\n\nCRM notes.");
    } finally {
      await close();
    }
    // A client that re-initializes gets the new resources and instructions.
    const fresh = await connectV1(url, t.admin.token);
    expect(fresh.client.getInstructions()).toBe("Server notes.\n\n## Billing\n\nBilling notes.");
    await fresh.close();
  });

  it("tools reconcile on the session's next request too, without waiting for the periodic check", async () => {
    const { t, billing, serverId, url } = await scenario();
    const { client, transport, close } = await connectV1(url, t.admin.token);
    try {
      await reassign(t, serverId, [billing]);
      // A raw request on the same session, right after the change.
      const res = await postRaw(url, LIST, { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" });
      expect(res.status).toBe(200);
      expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["list_invoices"]);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["list_invoices"]);
    } finally {
      await close();
    }
  });

  it("an unknown session id gets 404, so the client re-initializes", async () => {
    const { t, url } = await scenario();
    const res = await postRaw(url, LIST, { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": "00000000-0000-4000-8000-000000000000" });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(-32001);
  });

  it("a session is bound to its server and its credential: another key, or another server, presenting the id gets 404", async () => {
    const { t, url } = await scenario();
    const other = await scenario();
    const { transport, close } = await connectV1(url, t.admin.token);
    try {
      const sessionId = transport.sessionId!;
      const headers = (token: string) => ({ authorization: `Bearer ${token}`, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });
      expect((await postRaw(url, LIST, headers(t.owner.token))).status).toBe(404);
      expect((await postRaw(other.url, LIST, headers(t.admin.token))).status).toBe(404);
      expect((await postRaw(`${app.origin}/mcp`, LIST, headers(t.admin.token))).status).toBe(404);
      // The owner of the session is still served.
      expect((await postRaw(url, LIST, headers(t.admin.token))).status).toBe(200);
    } finally {
      await close();
    }
  });

  it("DELETE ends the session; its id is then unknown", async () => {
    const { t, url } = await scenario();
    const { transport, close } = await connectV1(url, t.admin.token);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await close();
    const res = await postRaw(url, LIST, { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": sessionId });
    expect(res.status).toBe(404);
  });

  it("idle sessions are evicted (MCP_SESSION_IDLE_MIN)", async () => {
    const { t, url } = await scenario();
    const { transport, close } = await connectV1(url, t.admin.token);
    const headers = { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" };
    expect((await postRaw(url, LIST, headers)).status).toBe(200);
    process.env.MCP_SESSION_IDLE_MIN = "0.001"; // 60 ms
    await vi.waitFor(async () => expect((await postRaw(url, LIST, headers)).status).toBe(404), { timeout: 10_000, interval: 200 });
    await close();
  });

  it("beyond MCP_MAX_SESSIONS the least recently used session is evicted", async () => {
    const { t, url } = await scenario();
    // A cap of 2 sessions (default 1000) so a third evicts one.
    process.env.MCP_MAX_SESSIONS = "2";
    // Raw initializes: a client library's background GET stream would touch sessions in an
    // order this test does not control.
    const open = async () => (await postRaw(url, INIT, { authorization: `Bearer ${t.admin.token}` })).headers.get("mcp-session-id")!;
    const list = async (sessionId: string) =>
      (await postRaw(url, LIST, { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" })).status;
    const a = await open();
    const b = await open();
    expect(await list(a)).toBe(200); // a is now more recent than b
    const c = await open();
    expect(await list(b)).toBe(404);
    expect(await list(a)).toBe(200);
    expect(await list(c)).toBe(200);
  });

  it("without MCP_STATEFUL_SESSIONS, 2025-era serving is stateless: no session id, GET is 405", async () => {
    delete process.env.MCP_STATEFUL_SESSIONS;
    const { t, url } = await scenario();
    const { client, transport, close } = await connectV1(url, t.admin.token);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      expect((await client.listTools()).tools).toHaveLength(1);
      const get = await fetch(url, { headers: { authorization: `Bearer ${t.admin.token}`, accept: "text/event-stream" } });
      expect(get.status).toBe(405);
    } finally {
      await close();
    }
  });
});

describe("2026-era subscribers", () => {
  it("a subscriptions/listen stream receives tools/list_changed when its caller's tools change, through the SDK handler", async () => {
    const { t, billing, serverId, url } = await scenario();
    const { client, close } = await connectV2(url, t.admin.token);
    const changed = vi.fn();
    client.setNotificationHandler("notifications/tools/list_changed", changed);
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      await reassign(t, serverId, [billing]);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
      expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toEqual(["list_invoices"]);
    } finally {
      await subscription.close();
      await close();
    }
  });

  it("a change that leaves the caller's tools as they were sends nothing", async () => {
    const { t, serverId, url } = await scenario();
    const { client, close } = await connectV2(url, t.admin.token);
    const changed = vi.fn();
    client.setNotificationHandler("notifications/tools/list_changed", changed);
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      // A configuration change that does not touch tools; the next request adopts it.
      expect((await api(t.admin.token).patch(`/api/v1/servers/${serverId}`, { instructions: "New notes." })).status).toBe(200);
      expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toEqual(["get_customer"]);
      // Then one that does: only this one is announced.
      const other = await connector(t, "Other", ["ping_other"]);
      await reassign(t, serverId, [other]);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
      expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toEqual(["ping_other"]);
      expect(changed).toHaveBeenCalledTimes(1);
    } finally {
      await subscription.close();
      await close();
    }
  });
});

describe("revocation", () => {
  it("revoking a key ends its live session and its subscriptions/listen stream, without waiting for a request", async () => {
    const { t, serverId, url } = await scenario();
    const v1 = await connectV1(url, t.member.token);
    const v2 = await connectV2(url, t.member.token);
    const subscription = await v2.client.listen({ toolsListChanged: true });
    const owner = { endpoint: { kind: "server" as const, serverId }, identity: `key:${t.member.apiKeyId}` };
    try {
      expect(findSession(v1.transport.sessionId!, owner)).not.toBeNull();
      expect((await api(t.admin.token).delete(`/api/v1/api-keys/${t.member.apiKeyId}`)).status).toBe(204);
      await vi.waitFor(() => expect(findSession(v1.transport.sessionId!, owner)).toBeNull(), { timeout: 10_000 });
      expect(await subscription.closed).not.toBe("local");
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });
});

describe("instance shutdown", () => {
  // Last in this file: shutdown hooks run once per process.
  it("closes live sessions (their streams would otherwise hold the server open); their ids are then unknown", async () => {
    const { t, url } = await scenario();
    const { transport, close } = await connectV1(url, t.admin.token);
    const headers = { authorization: `Bearer ${t.admin.token}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" };
    expect((await postRaw(url, LIST, headers)).status).toBe(200);
    expect(liveSessionCount()).toBeGreaterThan(0);
    await runShutdownHooks();
    expect(liveSessionCount()).toBe(0);
    expect((await postRaw(url, LIST, headers)).status).toBe(404);
    await close();
  });
});
