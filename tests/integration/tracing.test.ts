import { randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { loggerOptions } from "@/lib/log";
import { startTracing } from "@/lib/observability/start-tracing";
import { traced } from "@/lib/observability/tracing";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createMcpServer, createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startOtlpReceiver, type OtlpReceiver } from "@/tests/helpers/otlp-receiver";
import { expectCallTree, expectNoneOf, parseTraceparent, spansOfTrace } from "@/tests/helpers/trace-checks";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 28 "Traces": with OTEL_EXPORTER_OTLP_ENDPOINT set, one trace per MCP request, with spans
 * for authentication, visibility, the upstream call and database work; the upstream receives a
 * W3C traceparent of that trace; the audit event and the log lines carry its id; no argument,
 * result or token in any span; an admin API change joins the caller's trace and its audit event
 * answers that trace id. The spans go over OTLP/JSON to a receiver of the test's own
 * (tracing-protobuf.test.ts: the default http/protobuf, an `mcp` connector, the audit API).
 */

const ARGUMENT = "argument-7f3a-never-in-a-span";
const RESULT = "result-9c2e-never-in-a-span";

let receiver: OtlpReceiver;
let app: RouteServer;
let upstream: { url: string; traceparents: string[]; close: () => Promise<void> };

async function startHttpUpstream(): Promise<typeof upstream> {
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
// Tracing is off by default: these turn it on, towards the test's own OTLP/JSON receiver.
  vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url);
  vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
  vi.stubEnv("OTEL_SERVICE_NAME", "switchboard-test");
  await startTracing();
  upstream = await startHttpUpstream();
  app = await startRouteServer();
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
  await receiver?.close();
});

describe("a tools/call, traced", () => {
  let t: Tenant;
  let serverId: string;

  beforeAll(async () => {
    t = await createTenant();
    const connectorId = await createHttpConnector(t, "crm", ["lookup"], upstream.url);
    serverId = await createMcpServer(t, [connectorId]);
  });

  it("is one trace: the request, its authentication, visibility, database work and the upstream call, whose traceparent the upstream received", async () => {
    const { client, close } = await connectV1(`${app.origin}/mcp/${serverId}`, t.admin.token);
    try {
      const [tool] = (await client.listTools()).tools;
      upstream.traceparents.length = 0;
      const result = await client.callTool({ name: tool.name, arguments: { q: ARGUMENT } });
      expect(JSON.stringify(result.content)).toContain(RESULT);
    } finally {
      await close();
    }

    // The upstream got `00-<trace id>-<span id>-01`: the trace of the call, the upstream span as parent.
    expect(upstream.traceparents).toHaveLength(1);
    const { traceId, parentId } = parseTraceparent(upstream.traceparents[0]);

    const spans = await spansOfTrace(receiver, traceId, (s) => s.some((span) => span.name === "POST /mcp/{serverId}"));
    expect(new Set(spans.map((span) => span.protocol))).toEqual(new Set(["http/json"]));
    const tree = expectCallTree(spans, "http GET");
    expect(tree.upstream.spanId).toBe(parentId);
    expect(tree.upstream.attributes).toMatchObject({ "switchboard.upstream.kind": "http", "server.address": "127.0.0.1" });

    // Nothing the caller sent or got back, and no credential, in any span.
    expectNoneOf(spans, [ARGUMENT, RESULT, t.admin.token]);

    // The call's audit event names the same trace.
    const event = await db().auditEvent.findFirst({ where: { orgId: t.org.id, action: "tool.call" }, orderBy: { createdAt: "desc" } });
    expect(event?.traceId).toBe(traceId);
  }, 120_000);

  it("puts the trace id on the request's log lines", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) });
    const log = pino({ ...loggerOptions, level: "info" }, sink);
    log.info("outside any request");
    let traceId = "";
    await traced("a step", async () => {
      log.info("inside");
      traceId = JSON.parse(lines[1]).traceId;
    });
    expect(JSON.parse(lines[0]).traceId).toBeUndefined();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("an admin change, traced", () => {
  it("joins the caller's trace (its traceparent), and GET …/audit answers the change's event with that trace id, as the console shows it", async () => {
    const t = await createTenant();
    const traceId = randomBytes(16).toString("hex");
    const traceparent = `00-${traceId}-${randomBytes(8).toString("hex")}-01`;
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Traced", config: { baseUrl: upstream.url }, tools: [] }, { headers: { traceparent } });
    expect(created.status).toBe(201);
    const untraced = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "http", name: "Own trace", config: { baseUrl: upstream.url }, tools: [] });
    expect(untraced.status).toBe(201);

    const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=connector.create`);
    expect(audit.status).toBe(200);
    const traceOf = new Map(audit.body.items.map((e: { targetId: string; traceId: string | null }) => [e.targetId, e.traceId]));
    expect(traceOf.get(created.body.id)).toBe(traceId);
    // A request without a traceparent still gets a trace of its own (tracing is on), not the caller's.
    expect(traceOf.get(untraced.body.id)).toMatch(/^[0-9a-f]{32}$/);
    expect(traceOf.get(untraced.body.id)).not.toBe(traceId);
  });
});
