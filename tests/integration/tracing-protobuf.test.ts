import http from "node:http";
import type net from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/log";
import { startTracing } from "@/lib/observability/start-tracing";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createMcpServer, createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";
import { startOtlpReceiver, type OtlpReceiver } from "@/tests/helpers/otlp-receiver";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { expectCallTree, expectNoneOf, parseTraceparent, spansOfTrace } from "@/tests/helpers/trace-checks";

/**
 * Issue 28 "Traces", over OTLP's default protocol, http/protobuf (no OTEL_EXPORTER_OTLP_PROTOCOL):
 * the receiver decodes what arrives with OTLP's own .proto files. A tools/call of an http
 * connector gives the same tree as over http/json (tracing.test.ts); one of an `mcp` connector
 * reaches an upstream MCP server (the SDK's) with a traceparent of the call's trace; the call's
 * audit event answers that trace id in GET …/audit and its export, and the request's log line
 * carries it too.
 */

const ARGUMENT = "argument-51c8-never-in-a-span";
const RESULT = "result-0d7e-never-in-a-span";
const KEY = "sk-upstream-4b9f1e27c3a8";
const KEY_IN_PATH = "path-key-8b2f61d04e";

let receiver: OtlpReceiver;
let app: RouteServer;
let httpUpstream: { url: string; traceparents: string[]; close: () => Promise<void> };
let mcpUpstream: Upstream;

async function startHttpUpstream(): Promise<typeof httpUpstream> {
  const traceparents: string[] = [];
  const server = http.createServer((req, res) => {
    traceparents.push(String(req.headers.traceparent ?? ""));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ found: RESULT }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, traceparents, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // Tracing is off by default: these turn it on, towards the test's own receiver, protocol unset.
  vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url);
  vi.stubEnv("OTEL_SERVICE_NAME", "switchboard-test");
  await startTracing();
  httpUpstream = await startHttpUpstream();
  mcpUpstream = await startMcpUpstream({ tools: [{ name: "lookup" }], requireHeaders: { "x-api-key": KEY }, answer: () => RESULT });
  app = await startRouteServer();
});

afterAll(async () => {
  await app?.close();
  await httpUpstream?.close();
  await mcpUpstream?.close();
  await receiver?.close();
});

/** Calls the server's one tool over MCP as the tenant's admin; the result's text. */
async function callTheTool(t: Tenant, serverId: string, before: () => void): Promise<string> {
  const { client, close } = await connectV1(`${app.origin}/mcp/${serverId}`, t.admin.token);
  try {
    const [tool] = (await client.listTools()).tools;
    before();
    return JSON.stringify((await client.callTool({ name: tool.name, arguments: { q: ARGUMENT } })).content);
  } finally {
    await close();
  }
}

describe("traces over http/protobuf", () => {
  it("an http connector's tools/call: the same tree as over http/json, decoded from protobuf", async () => {
    const t = await createTenant();
    const serverId = await createMcpServer(t, [await createHttpConnector(t, "crm", ["lookup"], httpUpstream.url)]);
    expect(await callTheTool(t, serverId, () => (httpUpstream.traceparents.length = 0))).toContain(RESULT);

    expect(httpUpstream.traceparents).toHaveLength(1);
    const { traceId, parentId } = parseTraceparent(httpUpstream.traceparents[0]);
    const spans = await spansOfTrace(receiver, traceId, (s) => s.some((span) => span.name === "POST /mcp/{serverId}"));
    expect(new Set(spans.map((span) => span.protocol))).toEqual(new Set(["http/protobuf"]));
    const tree = expectCallTree(spans, "http GET");
    expect(tree.upstream.spanId).toBe(parentId);
    expect(tree.upstream.attributes).toMatchObject({ "switchboard.upstream.kind": "http", "server.address": "127.0.0.1" });
    expectNoneOf(spans, [ARGUMENT, RESULT, t.admin.token]);
  }, 120_000);

  it("an mcp connector's tools/call: the upstream MCP server receives the call's trace; the audit API and the request's log line name it", async () => {
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: mcpUpstream.url, headers: { "X-Api-Key": KEY } } });
    expect(created.status).toBe(201);
    const serverId = await createMcpServer(t, [created.body.id]);

    // The request's log lines, as the process's logger writes them.
    const lines: string[] = [];
    const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
    const write = vi.spyOn(stream, "write").mockImplementation((line: string) => void lines.push(line));
    const level = logger.level;
    logger.level = "info";
    try {
      expect(await callTheTool(t, serverId, () => (mcpUpstream.seenHeaders.length = 0))).toContain(RESULT);
    } finally {
      logger.level = level;
      write.mockRestore();
    }

    // Every request of the call (the SDK's POST; maybe a reconnect first) carried a traceparent of one trace.
    const traceparents = mcpUpstream.seenHeaders.map((headers) => headers.traceparent).filter(Boolean);
    expect(traceparents.length).toBeGreaterThan(0);
    const { traceId, parentId } = parseTraceparent(traceparents.at(-1)!);
    for (const header of traceparents) expect(parseTraceparent(header).traceId).toBe(traceId);

    const spans = await spansOfTrace(receiver, traceId, (s) => s.some((span) => span.name === "POST /mcp/{serverId}") && s.some((span) => span.spanId === parentId));
    const tree = expectCallTree(spans, "mcp tools/call");
    expect(tree.upstream.attributes).toMatchObject({ "switchboard.upstream.kind": "mcp", "server.address": "127.0.0.1" });
    // The request the upstream got is undici's span under ours.
    const sent = spans.find((span) => span.spanId === parentId)!;
    expect(sent.parentSpanId).toBe(tree.upstream.spanId);
    expectNoneOf(spans, [ARGUMENT, RESULT, KEY, t.admin.token]);

    // GET …/audit answers the call's event with its trace id; the export carries it too.
    const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=tool.call`);
    expect(audit.status).toBe(200);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0].traceId).toBe(traceId);
    const exported = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit/export?format=csv&action=tool.call`);
    expect(exported.text.trimEnd().split("\r\n")[1].endsWith(`,${traceId}`)).toBe(true);

    // The call's request line: its route, and the same trace id.
    const requestLines = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === "request" && line.traceId === traceId);
    expect(requestLines).toEqual([expect.objectContaining({ route: "/mcp/{serverId}", method: "POST", status: 200 })]);
  }, 120_000);

  it("outbound requests are recorded by their origin only: a key in an mcp connector's URL path reaches no span", async () => {
    const t = await createTenant();
    const config = { url: `${mcpUpstream.url}/${KEY_IN_PATH}`, headers: { "X-Api-Key": KEY } };
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Keyed", type: "mcp", config });
    expect(created.status).toBe(201);
    const serverId = await createMcpServer(t, [created.body.id]);
    expect(await callTheTool(t, serverId, () => (mcpUpstream.seenHeaders.length = 0))).toContain(RESULT);

    const { traceId, parentId } = parseTraceparent(mcpUpstream.seenHeaders.map((headers) => headers.traceparent).filter(Boolean).at(-1)!);
    const spans = await spansOfTrace(receiver, traceId, (s) => s.some((span) => span.name === "POST /mcp/{serverId}") && s.some((span) => span.spanId === parentId));
    // undici's span of the request the upstream got: its origin, no path (nor the caller's /mcp/{id}).
    const sent = spans.find((span) => span.spanId === parentId)!;
    expect(sent.attributes["url.full"]).toBe(new URL(mcpUpstream.url).origin);
    for (const span of spans.filter((s) => s.kind === 3)) expect(Object.keys(span.attributes)).not.toEqual(expect.arrayContaining(["url.path"]));
    expectNoneOf(spans, [KEY_IN_PATH, KEY, ARGUMENT, RESULT]);
  }, 120_000);
});
