import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialiseMessage } from "@/lib/mcp/serve/protocol/serialise-message";
import { publishTools } from "@/lib/mcp/surface/surface-types";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV2 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * tools/list answers are written from the published list's bytes (lib/mcp/serve/
 * serialise-message.ts) on both protocol eras: what goes on the wire must be exactly what the
 * SDK's own JSON.stringify would have written — the same frame, the same envelope (id,
 * resultType, _meta…) around the same list — and a client must read it as before.
 */

const schema = (i: number) => ({ type: "object", properties: { id: { type: "string", description: `record ${i} "quoted" \u00e9\u6f22` } }, required: ["id"] });

describe("serialiseMessage", () => {
  it("a message carrying a published list: the bytes of JSON.stringify of the whole message, frame included", () => {
    const published = publishTools(Array.from({ length: 3 }, (_, i) => ({ exposedName: `t_${i}`, tool: { name: `t_${i}`, description: `tool ${i}`, inputSchema: schema(i) } as never, view: {} as never })));
    const message = { result: { tools: published.list, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "S", version: "1" } } }, jsonrpc: "2.0", id: 7 };
    expect(serialiseMessage(message).toString("utf8")).toBe(JSON.stringify(message));
    expect(serialiseMessage(message, "event: message\ndata: ", "\n\n").toString("utf8")).toBe(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    // An array the list was copied into (as the SDK does when it rewrites tools) is serialised as it is.
    const copied = { ...message, result: { ...message.result, tools: [...published.list, { name: "extra", inputSchema: { type: "object" } }] } };
    expect(serialiseMessage(copied).toString("utf8")).toBe(JSON.stringify(copied));
    expect(serialiseMessage({ jsonrpc: "2.0", id: 1, result: {} }).toString("utf8")).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
});

let app: RouteServer;
let t: Tenant;
let serverId: string;
const TOOLS = ["alpha", "beta", "gamma"];

beforeAll(async () => {
  app = await startRouteServer();
  t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Records",
    config: { baseUrl: "https://api.example.com" },
    tools: TOOLS.map((name, i) => ({ name, description: `The ${name} tool`, inputSchema: schema(i), request: { method: "GET", path: `/${name}` } })),
  });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  serverId = server.body.id;
});
afterAll(async () => {
  await app.close();
});

async function rawToolsList(headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${app.origin}/mcp/${serverId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${t.member.token}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get("content-type"), text: await res.text() };
}

describe("tools/list on the wire", () => {
  it("2025-11-25: one SSE frame whose data is the canonical JSON of the answer, with every published tool", async () => {
    const res = await rawToolsList({ "mcp-protocol-version": "2025-11-25" }, { jsonrpc: "2.0", id: 41, method: "tools/list" });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    const frame = /^event: message\ndata: (.*)\n\n$/s.exec(res.text.slice(res.text.indexOf("event: message")));
    expect(frame, res.text.slice(0, 300)).not.toBeNull();
    const message = JSON.parse(frame![1]);
    expect(frame![1]).toBe(JSON.stringify(message));
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 41 });
    expect(message.result.tools.map((tool: { name: string }) => tool.name)).toEqual(TOOLS);
    // An http GET tool says it only reads (issue 26 point 3).
    expect(message.result.tools[1]).toEqual({ name: "beta", description: "The beta tool", inputSchema: schema(1), annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true } });
  });

  it("2026-07-28: a JSON answer that is the canonical JSON of the SDK's result (resultType, cache fields, server info), read by an SDK v2 client", async () => {
    const v2 = await connectV2(`${app.origin}/mcp/${serverId}`, t.member.token);
    try {
      const listed = await v2.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(TOOLS);
      expect(listed.tools[2].inputSchema).toEqual(schema(2));
    } finally {
      await v2.close();
    }
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await rawToolsList({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }, { jsonrpc: "2.0", id: 42, method: "tools/list", params: { _meta: meta } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    const message = JSON.parse(res.text);
    expect(res.text).toBe(JSON.stringify(message));
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 42, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "S" } } } });
    expect(message.result.tools.map((tool: { name: string }) => tool.name)).toEqual(TOOLS);
  });
});
