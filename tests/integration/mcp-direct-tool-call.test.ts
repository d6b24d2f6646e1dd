import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolCallsServedDirectly } from "@/lib/mcp/serve/protocol/direct-tool-call";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { startNodeMcpServer, type NodeMcpServer } from "@/tests/helpers/node-mcp-server";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * A stateless 2025-era tools/call is answered without the SDK's per-request Server and
 * transport (lib/mcp/serve/protocol/direct-tool-call.ts, issue 22 point 4). A client must not
 * be able to tell: each case here is sent twice — as a plain tools/call, which the direct path
 * answers, and with a `_meta` entry it does not take, which goes through the SDK — through the
 * route handler and through the instance's own node:http server, and the four answers must be
 * the same bytes (status, content type, every SSE frame).
 */

let routes: RouteServer;
let node: NodeMcpServer;
let httpApi: HttpApiStub;
let t: Tenant;
let serverId: string;

beforeAll(async () => {
  [routes, httpApi] = await Promise.all([startRouteServer(), startHttpApi()]);
  httpApi.route("GET", "/search", (req, res) => {
    const q = new URL(req.url, "http://x").searchParams.get("q") ?? "";
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ q, hits: [{ id: 1, title: `about ${q}` }] }));
  });
  httpApi.route("GET", "/broken", (_req, res) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "the database is on fire" })));
  httpApi.route("GET", "/list", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([1, 2, 3])));
  node = await startNodeMcpServer();
  t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Search",
    config: { baseUrl: httpApi.origin },
    tools: [
      { name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, request: { method: "GET", path: "/search" } },
      { name: "broken", inputSchema: { type: "object" }, request: { method: "GET", path: "/broken" } },
      { name: "list", inputSchema: { type: "object" }, request: { method: "GET", path: "/list" } },
    ],
  });
  expect(connector.status, connector.text).toBe(201);
  const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(created.status, created.text).toBe(201);
  serverId = created.body.id;
});
afterAll(async () => {
  await Promise.all([routes.close(), node.close(), httpApi.close()]);
});

interface Answer {
  status: number;
  type: string | null;
  cache: string | null;
  text: string;
}

async function post(origin: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${origin}/mcp/${serverId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), cache: res.headers.get("cache-control"), text: await res.text() };
}

/** A `_meta` entry the direct path does not take: the same call then goes through the SDK. */
const THROUGH_SDK = { "example.com/note": "through the SDK" };

function toolCall(name: string, args: unknown, meta?: object) {
  return { jsonrpc: "2.0", id: 41, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }), ...(meta ? { _meta: meta } : {}) } };
}

/** The call answered four ways; the direct path must have answered exactly the two plain ones. */
async function fourWays(name: string, args: unknown): Promise<Answer> {
  const before = toolCallsServedDirectly();
  const direct = [await post(routes.origin, toolCall(name, args)), await post(node.origin, toolCall(name, args))];
  expect(toolCallsServedDirectly() - before).toBe(2);
  const sdk = [await post(routes.origin, toolCall(name, args, THROUGH_SDK)), await post(node.origin, toolCall(name, args, THROUGH_SDK))];
  expect(toolCallsServedDirectly() - before).toBe(2);
  for (const answer of [...direct, sdk[1]]) expect(answer).toEqual(sdk[0]);
  return sdk[0];
}

/** The one message of an SSE answer. */
function message(answer: Answer): { id: unknown; result?: { content: Array<{ text: string }>; structuredContent?: unknown; isError?: boolean }; error?: { code: number; message: string } } {
  const data = answer.text.split("\n").filter((line) => line.startsWith("data: "));
  expect(data, answer.text).toHaveLength(1);
  return JSON.parse(data[0].slice(6));
}

describe("a stateless 2025-era tools/call, answered without the SDK's per-request Server", () => {
  it("a result: the same event stream, the upstream's record in it", async () => {
    const answer = await fourWays("search", { q: "otters" });
    expect(answer).toMatchObject({ status: 200, type: "text/event-stream", cache: "no-cache, no-transform" });
    expect(message(answer)).toMatchObject({ id: 41, result: { structuredContent: { q: "otters", hits: [{ id: 1, title: "about otters" }] } } });
  });

  it("a call without arguments, and an upstream answering an array (as text only: structured content is an object)", async () => {
    const { result } = message(await fourWays("list", undefined));
    expect(result?.structuredContent).toBeUndefined();
    expect(JSON.parse(result!.content[0].text)).toEqual([1, 2, 3]);
  });

  it("an upstream failing, and arguments the tool's schema refuses: the same isError result", async () => {
    expect(message(await fourWays("broken", {})).result).toMatchObject({ isError: true });
    expect(message(await fourWays("search", { q: 42 })).result).toMatchObject({ isError: true });
  });

  it("an unknown tool: the same JSON-RPC error", async () => {
    expect(message(await fourWays("no-such-tool", {})).error).toEqual({ code: -32602, message: "Unknown tool: no-such-tool" });
  });

  it("what the direct path does not take goes to the SDK, which answers it as before", async () => {
    const before = toolCallsServedDirectly();
    const arrayArgs = await post(node.origin, toolCall("search", [1]));
    expect(message(arrayArgs).error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid tools\/call request/) });
    const numberName = await post(node.origin, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: 7 } });
    expect(message(numberName).error).toMatchObject({ code: -32602 });
    const progress = await post(node.origin, toolCall("search", { q: "x" }, { progressToken: "p1" }));
    expect(message(progress).result).toMatchObject({ structuredContent: { q: "x" } });
    // Only the last (a progress token is a `_meta` the direct path takes) was answered directly.
    expect(toolCallsServedDirectly() - before).toBe(1);
  });
});
