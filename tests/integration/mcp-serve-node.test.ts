import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sseSinksMade } from "@/lib/mcp/serve/node-adapter/node-sse-sink";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { parseBody } from "@/tests/helpers/mcp-clients";
import { startNodeMcpServer, type NodeMcpServer } from "@/tests/helpers/node-mcp-server";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * The MCP endpoints as the instance's own node:http server answers them (lib/mcp/serve/node-adapter/serve-node.ts,
 * in front of Next): a 2025-era stateless answer's event stream is written straight to the
 * socket and a small body is read whole first, and a client sees exactly what the route
 * handler (the same serveMcp behind the node ⇄ fetch adapter) answers — status, content type,
 * every SSE message — for a call, an initialize, a notification, a refusal and a large body.
 */

let routes: RouteServer;
let direct: NodeMcpServer;
let httpApi: HttpApiStub;
let t: Tenant;
let serverId: string;
let slowRelease = deferred();
/** Resolved when the connection of the upstream's /slow request closes. */
let slowClosed = deferred();

beforeAll(async () => {
  [routes, httpApi] = await Promise.all([startRouteServer(), startHttpApi()]);
  httpApi.route("GET", "/search", (req, res) => {
    const q = new URL(req.url, "http://x").searchParams.get("q")!;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ q: q.slice(0, 20), length: q.length }));
  });
  // Answers once the test says so (its client has seen the stream open), or after 5 s.
  httpApi.route("GET", "/slow", (_req, res) => {
    res.once("close", () => res.writableFinished || slowClosed.resolve());
    void Promise.race([slowRelease.promise, new Promise((r) => setTimeout(r, 5_000))]).then(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ slow: true })));
  });
  direct = await startNodeMcpServer();
  t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Search",
    config: { baseUrl: httpApi.origin },
    tools: [
      { name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: { method: "GET", path: "/search" } },
      { name: "slow", inputSchema: { type: "object" }, request: { method: "GET", path: "/slow" } },
    ],
  });
  expect(connector.status, connector.text).toBe(201);
  const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(created.status, created.text).toBe(201);
  serverId = created.body.id;
});
afterAll(async () => {
  await Promise.all([routes.close(), direct.close(), httpApi.close()]);
});

async function post(origin: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}/mcp/${serverId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25", ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), messages: parseBody(text, res.headers.get("content-type"), true) };
}

/** The same request to both servers: the answers as a client reads them. */
async function both(body: unknown, headers?: Record<string, string>) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const [viaRoute, viaNode] = await Promise.all([post(routes.origin, text, headers), post(direct.origin, text, headers)]);
  return { viaRoute, viaNode };
}

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const call = (q: string, id: number | string = 1, _meta?: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search", arguments: { q }, ...(_meta ? { _meta } : {}) } });

describe("MCP served by the instance's own HTTP server", () => {
  it("a tools/call: the same event stream as through the route handler, the upstream's answer in it", async () => {
    const { viaRoute, viaNode } = await both(call("hello"));
    expect(viaNode).toEqual(viaRoute);
    expect(viaNode.type).toMatch(/^text\/event-stream/);
    expect(viaNode.messages).toHaveLength(1);
    expect(viaNode.messages[0]).toMatchObject({ id: 1, result: { structuredContent: { q: "hello", length: 5 } } });
  });

  it("16 concurrent calls each get their own answer", async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => post(direct.origin, JSON.stringify(call(`q${i}`, `c${i}`)))));
    answers.forEach((a, i) => expect(a.messages, JSON.stringify(a)).toMatchObject([{ id: `c${i}`, result: { structuredContent: { q: `q${i}` } } }]));
  });

  it("initialize, a notification (202, no body) and a request the SDK refuses (406) answer alike", async () => {
    const init = await both({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    expect(init.viaNode).toEqual(init.viaRoute);
    expect(init.viaNode.messages[0].result.serverInfo).toBeDefined();
    const note = await both({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.viaNode).toEqual(note.viaRoute);
    expect(note.viaNode).toMatchObject({ status: 202, messages: null });
    const refused = await both(call("x"), { accept: "application/json" });
    expect(refused.viaNode).toEqual(refused.viaRoute);
    expect(refused.viaNode.status).toBe(406);
  });

  it("a body too large to read whole first (over 64 KB) is streamed, with the same answer", async () => {
    const { viaRoute, viaNode } = await both(call("big", 1, { padding: "x".repeat(100_000) }));
    expect(viaNode).toEqual(viaRoute);
    expect(viaNode.messages[0]).toMatchObject({ result: { structuredContent: { q: "big" } } });
  });

  it("a batch of two calls (2025-03-26): one stream, both answers, then it ends", async () => {
    const { viaRoute, viaNode } = await both([call("a", 1), call("b", 2)], { "mcp-protocol-version": "2025-03-26" });
    expect(viaNode.status).toBe(viaRoute.status);
    const ids = (m: Array<{ id: number }>) => m.map((x) => x.id).sort();
    expect(ids(viaNode.messages)).toEqual([1, 2]);
    expect(ids(viaRoute.messages)).toEqual([1, 2]);
  });

  it("only an answer that streams takes a socket sink: a notification, a client's answer, a GET and a 2026-07-28 request make none", async () => {
    const before = sseSinksMade();
    expect((await post(direct.origin, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).status).toBe(202);
    expect((await post(direct.origin, JSON.stringify({ jsonrpc: "2.0", id: "sbask_none", result: {} }))).status).toBe(202);
    const get = await fetch(`${direct.origin}/mcp/${serverId}`, { headers: { authorization: `Bearer ${t.member.token}`, accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" } });
    expect(get.status).toBe(405);
    await get.body?.cancel();
    const modern = await post(direct.origin, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: MODERN_META } }), { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
    expect(modern.status).toBe(200);
    expect(sseSinksMade()).toBe(before);
    expect((await post(direct.origin, JSON.stringify(call("streamed")))).messages[0]).toMatchObject({ result: { structuredContent: { q: "streamed" } } });
    expect(sseSinksMade()).toBe(before + 1);
  });

  it("a call answered at once: its head, answer and end reach the client in one piece", async () => {
    await post(direct.origin, JSON.stringify(call("warm"))); // caches warm, so the call answers at once
    const chunks = await rawPost(JSON.stringify(call("one", 7)));
    expect(chunks[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(chunks[0]).toContain('"structuredContent":{"q":"one","length":3}');
    expect(chunks[0].endsWith("0\r\n\r\n")).toBe(true);
  });

  it("a call still running: the client sees its stream open before the answer", async () => {
    slowRelease = deferred();
    const chunks = await rawPost(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "slow", arguments: {} } }), () => slowRelease.resolve());
    expect(chunks[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(chunks[0]).not.toContain("structuredContent");
    expect(chunks.join("")).toContain('"structuredContent":{"slow":true}');
  });

  it("a client that goes away during a call: the upstream's request is given up too", async () => {
    slowRelease = deferred();
    slowClosed = deferred();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "slow", arguments: {} } });
    const req = http.request({ port: new URL(direct.origin).port, method: "POST", path: `/mcp/${serverId}`, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25" } });
    req.on("error", () => undefined);
    req.on("response", () => req.destroy()); // the stream is open: the call is running upstream
    req.end(body);
    const closed = await Promise.race([slowClosed.promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 4_000))]);
    slowRelease.resolve();
    expect(closed).toBe(true);
  });
});

/** A POST on a raw socket: what the client receives, read by read; `onFirst` runs at the first. */
function rawPost(body: string, onFirst?: () => void): Promise<string[]> {
  const { port } = new URL(direct.origin);
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const req = http.request({ port, method: "POST", path: `/mcp/${serverId}`, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25", "content-length": Buffer.byteLength(body) } });
    req.on("socket", (socket) => {
      socket.on("data", (chunk: Buffer) => {
        chunks.push(chunk.toString());
        if (chunks.length === 1) onFirst?.();
        if (chunks.join("").endsWith("0\r\n\r\n")) resolve(chunks);
      });
    });
    req.on("response", (res) => res.resume());
    req.on("error", reject);
    req.end(body);
  });
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
