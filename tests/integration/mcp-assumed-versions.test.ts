import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { versionReadsMade } from "@/lib/config-version/read-current-version";
import { db, dbPool } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { startNodeMcpServer, type NodeMcpServer } from "@/tests/helpers/node-mcp-server";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * A stateless tools/call that the instance's own server read whole assumes the configuration
 * versions this process read last, and its audit row goes in only while they are still current
 * (lib/config-version/read-current-version.ts, lib/audit/write-call-rows.ts): one database round
 * trip per call instead of two (issue 22 point 4). What must not change: a key revoked, a tool
 * taken away or granted, on this instance or any other, counts from the next request, exactly
 * as when every request read the versions first — and nothing of a refused call reaches the
 * upstream or the audit log.
 */

let routes: RouteServer;
let node: NodeMcpServer;
let httpApi: HttpApiStub;
let t: Tenant;
let connectorId: string;
let serverId: string;

beforeAll(async () => {
  [routes, httpApi] = await Promise.all([startRouteServer(), startHttpApi()]);
  httpApi.route("GET", "/search", (req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ q: new URL(req.url, "http://x").searchParams.get("q") })));
  httpApi.route("GET", "/count", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count: 3 })));
  node = await startNodeMcpServer();
  t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Search",
    config: { baseUrl: httpApi.origin },
    tools: [{ name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: { method: "GET", path: "/search" } }],
  });
  expect(connector.status, connector.text).toBe(201);
  connectorId = connector.body.id;
});
afterAll(async () => {
  await Promise.all([routes.close(), node.close(), httpApi.close()]);
});

beforeEach(async () => {
  const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: `S ${Date.now()}`, connectorIds: [connectorId] });
  expect(created.status, created.text).toBe(201);
  serverId = created.body.id;
});

function post(origin: string, token: string, message: Record<string, unknown>) {
  return fetch(`${origin}/mcp/${serverId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
}

async function callTool(origin: string, token: string, name: string, args: Record<string, unknown> = {}, id = 1) {
  const res = await post(origin, token, { id, method: "tools/call", params: { name, arguments: args } });
  const text = await res.text();
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  return { status: res.status, message: data ? (JSON.parse(data.slice(6)) as { result?: { structuredContent?: unknown; isError?: boolean }; error?: { code: number; message: string } }) : null };
}

/** The tool.call rows of this test's server. */
async function callRows(): Promise<number> {
  return db().auditEvent.count({ where: { orgId: t.org.id, action: "tool.call", data: { path: ["serverId"], equals: serverId } } });
}

describe("a stateless tools/call through the instance's own server, on the versions it read last", () => {
  it("reads no version once it has read them: its audit row confirms them (through the route handler, each call reads)", async () => {
    expect((await callTool(node.origin, t.member.token, "search", { q: "warm" })).message?.result).toMatchObject({ structuredContent: { q: "warm" } });
    const before = versionReadsMade();
    for (let i = 0; i < 5; i++) expect((await callTool(node.origin, t.member.token, "search", { q: `n${i}` })).message?.result).toMatchObject({ structuredContent: { q: `n${i}` } });
    expect(versionReadsMade() - before).toBe(0);
    expect((await callTool(routes.origin, t.member.token, "search", { q: "routed" })).message?.result).toMatchObject({ structuredContent: { q: "routed" } });
    expect(versionReadsMade() - before).toBeGreaterThan(0);
    expect(await callRows()).toBe(7);
  });

  it("a key revoked since is refused (401): nothing reaches the upstream, nothing is audited as a call", async () => {
    const key = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id });
    expect((await callTool(node.origin, key.token, "search", { q: "before" })).status).toBe(200);
    expect((await api(t.member.token).delete(`/api/v1/api-keys/${key.apiKeyId}`)).status).toBe(204);
    const upstreamBefore = httpApi.seen.length;
    const rowsBefore = await callRows();
    const refused = await callTool(node.origin, key.token, "search", { q: "after" });
    expect(refused.status).toBe(401);
    expect(httpApi.seen.length).toBe(upstreamBefore);
    expect(await callRows()).toBe(rowsBefore);
  });

  it("a tool taken away since is unknown, and the upstream never hears of the call", async () => {
    expect((await callTool(node.origin, t.member.token, "search", { q: "before" })).message?.result).toMatchObject({ structuredContent: { q: "before" } });
    expect((await api(t.admin.token).patch(`/api/v1/servers/${serverId}`, { connectorIds: [] })).status).toBe(200);
    const upstreamBefore = httpApi.seen.length;
    const rowsBefore = await callRows();
    const refused = await callTool(node.origin, t.member.token, "search", { q: "after" });
    expect(refused.message?.error).toEqual({ code: -32602, message: "Unknown tool: search" });
    expect(httpApi.seen.length).toBe(upstreamBefore);
    expect(await callRows()).toBe(rowsBefore);
  });

  it("a tool added since is served at once, though the view this process held did not have it", async () => {
    expect((await callTool(node.origin, t.member.token, "search", { q: "before" })).message?.result).toMatchObject({ structuredContent: { q: "before" } });
    const added = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, {
      tools: [
        { name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: { method: "GET", path: "/search" } },
        { name: "count", inputSchema: { type: "object" }, request: { method: "GET", path: "/count" } },
      ],
    });
    expect(added.status, added.text).toBe(200);
    const rowsBefore = await callRows();
    expect((await callTool(node.origin, t.member.token, "count")).message?.result).toMatchObject({ structuredContent: { count: 3 } });
    expect(await callRows()).toBe(rowsBefore + 1);
  });

  it("a call its client cancels while its row waits on versions that had moved is not served again: the upstream never hears of it", async () => {
    expect((await callTool(node.origin, t.member.token, "search", { q: "warm" })).status).toBe(200);
    // The organization's version moves: the next call's row will not go in.
    expect((await api(t.admin.token).patch(`/api/v1/servers/${serverId}`, { instructions: "moved again" })).status).toBe(200);
    const pool = dbPool()!;
    const query = pool.query;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The call's row waits at the database until its cancellation has been delivered.
    pool.query = (async (...args: Parameters<typeof query>) => {
      const config = args[0] as { name?: string; values?: unknown[][] };
      if (config?.name === "sb_write_tool_call_rows" && (config.values?.[0]?.length ?? 0) > 0) {
        reached();
        await released;
      }
      return (query as (...a: unknown[]) => Promise<unknown>).apply(pool, args);
    }) as typeof query;
    const upstreamBefore = httpApi.seen.length;
    const rowsBefore = await callRows();
    try {
      const pending = callTool(node.origin, t.member.token, "search", { q: "cancelled" }, 41);
      await held;
      const cancel = await post(node.origin, t.member.token, { method: "notifications/cancelled", params: { requestId: 41, reason: "changed my mind" } });
      expect(cancel.status).toBe(202);
      release();
      const answer = await pending;
      expect(answer.message?.result).toBeUndefined();
      expect(answer.message?.error?.message).toContain("its client cancelled it");
    } finally {
      pool.query = query;
      release();
    }
    expect(httpApi.seen.length).toBe(upstreamBefore);
    expect(await callRows()).toBe(rowsBefore);
    // The next call is served as usual.
    expect((await callTool(node.origin, t.member.token, "search", { q: "after" })).message?.result).toMatchObject({ structuredContent: { q: "after" } });
  });

  it("a call served again because a version moved spends its key's rate budget once", async () => {
    // A budget of three calls a minute (a limiter of its own: the key is in the limiter's name).
    process.env.MCP_RATE_LIMIT = "3";
    try {
      const key = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id });
      expect((await callTool(node.origin, key.token, "search", { q: "one" })).status).toBe(200);
      // The organization's version moves: the next call's assumed versions fail its audit insert.
      expect((await api(t.admin.token).patch(`/api/v1/servers/${serverId}`, { instructions: "moved" })).status).toBe(200);
      const reads = versionReadsMade();
      expect((await callTool(node.origin, key.token, "search", { q: "two" })).message?.result).toMatchObject({ structuredContent: { q: "two" } });
      expect(versionReadsMade() - reads).toBeGreaterThan(0); // it was served again, with versions read
      expect((await callTool(node.origin, key.token, "search", { q: "three" })).status).toBe(200);
      expect((await callTool(node.origin, key.token, "search", { q: "four" })).status).toBe(429);
    } finally {
      delete process.env.MCP_RATE_LIMIT;
    }
  });
});
