import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { tryTool } from "@/lib/mcp/try-tool";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { connectV2, postRaw, rpcError } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1Upstream, type RecordedUpstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 10 point 3: "A tool call is never executed without its audit event." Arguments the
 * audit log cannot store (U+0000, a lone surrogate) are refused with JSON-RPC -32602 naming
 * the argument, and an audit insert that fails means the call is not made — checked against a
 * real HTTP API and a real upstream MCP server that count what they receive.
 */

let app: RouteServer;
let httpApi: HttpApiStub;
let upstream: RecordedUpstream;

beforeAll(async () => {
  [app, httpApi, upstream] = await Promise.all([startRouteServer(), startHttpApi(), startV1Upstream()]);
  httpApi.route("GET", "/search", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("found"));
});
afterAll(async () => {
  await Promise.all([app.close(), httpApi.close(), upstream.stop()]);
});

/** A server with an http connector (tool `search`) and an mcp connector (tools echo, host_call, fails). */
async function setup() {
  const t = await createTenant();
  const http = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "Search",
    config: { baseUrl: httpApi.origin },
    tools: [{ name: "search", inputSchema: { type: "object", properties: { q: {}, filter: {} } }, request: { method: "GET", path: "/search" } }],
  });
  expect(http.status, http.text).toBe(201);
  const mcp = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.url } });
  expect(mcp.status, mcp.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [http.body.id, mcp.body.id] });
  expect(server.status, server.text).toBe(201);
  return { t, serverId: server.body.id as string };
}

/** One 2025-era tools/call over real HTTP; `argsJson` is sent verbatim (so "\ud800" stays a lone surrogate). */
async function rpcCall(t: Tenant, serverId: string, name: string, argsJson: string) {
  const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argsJson}}}`;
  return postRaw(`${app.origin}/mcp/${serverId}`, body, { authorization: `Bearer ${t.member.token}`, "mcp-protocol-version": "2025-11-25" });
}

const upstreamCalls = () => upstream.messages.filter((m) => m.method === "tools/call").length;
const toolEvents = (t: Tenant) => db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" }, orderBy: { createdAt: "asc" } });

describe("arguments the audit log could not store are refused before the call", () => {
  it("U+0000 or a lone surrogate anywhere in the arguments: -32602 naming the argument (at the MCP edge, HTTP 400); neither upstream got a request", async () => {
    const { t, serverId } = await setup();
    const seenBefore = httpApi.seen.length;
    const callsBefore = upstreamCalls();
    // The MCP edge refuses these first (HTTP 400 with a JSON-RPC error naming the argument);
    // the tool runtime's own check behind it is what "Try a tool" meets below.
    const NUL = /NUL character \(U\+0000\)/;
    const LONE = /unpaired UTF-16 surrogate/;
    const cases: Array<[string, string, RegExp, RegExp]> = [
      ["search", '{"q":"a\\u0000b"}', /"q"/, NUL],
      ["search", '{"filter":{"tags":["ok","\\ud800"]}}', /filter/, LONE],
      ["search", '{"\\udc00":"x"}', /^Invalid arguments/, LONE],
      ["echo", '{"text":"\\u0000"}', /"text"/, NUL],
      ["echo", '{"text":"end \\udbff"}', /"text"/, LONE],
    ];
    for (const [tool, args, names, flaw] of cases) {
      const res = await rpcCall(t, serverId, tool, args);
      expect(res.status).toBe(400);
      expect(res.body.error?.code, JSON.stringify(res.body)).toBe(-32602);
      expect(res.body.error.message).toMatch(/^Invalid arguments: /);
      expect(res.body.error.message).toMatch(names);
      expect(res.body.error.message).toMatch(flaw);
    }
    expect(httpApi.seen.length).toBe(seenBefore);
    expect(upstreamCalls()).toBe(callsBefore);
    // A well-formed pair is text like any other and goes through.
    const emoji = await rpcCall(t, serverId, "search", '{"q":"\\ud83d\\ude00"}');
    expect(emoji.body.result?.content?.[0]?.text).toBe("found");
    expect(httpApi.seen.length).toBe(seenBefore + 1);
  });

  it("a 2026-07-28 client gets the same -32602, and nothing reaches the upstreams", async () => {
    const { t, serverId } = await setup();
    const seenBefore = httpApi.seen.length;
    const callsBefore = upstreamCalls();
    const v2 = await connectV2(`${app.origin}/mcp/${serverId}`, t.member.token);
    try {
      const nul = await rpcError(v2.client.callTool({ name: "search", arguments: { q: "x\u0000" } }));
      expect(nul).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid arguments: .*"q".*NUL character \(U\+0000\)/) });
      const lone = await rpcError(v2.client.callTool({ name: "echo", arguments: { text: "\ud800" } }));
      expect(lone).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid arguments: .*"text".*unpaired UTF-16 surrogate/) });
    } finally {
      await v2.close();
    }
    expect(httpApi.seen.length).toBe(seenBefore);
    expect(upstreamCalls()).toBe(callsBefore);
  });

  it("\"Try a tool\" refuses them the same way, naming the argument", async () => {
    const { t, serverId } = await setup();
    const callsBefore = upstreamCalls();
    const admin = { kind: "user" as const, userId: t.admin.user.id, apiKey: null };
    await expect(tryTool(admin, serverId, "echo", { text: "x\u0000" })).rejects.toMatchObject({ code: "validation_failed", message: expect.stringContaining("/text") });
    expect(upstreamCalls()).toBe(callsBefore);
  });
});

describe("the audit event is written before the call, and a failed write means no call", () => {
  it("the event says \"started\" while the upstream is answering, then \"finished\" with the outcome, size and sha-256", async () => {
    const { t, serverId } = await setup();
    let seenWhileRunning: unknown[] = [];
    httpApi.route("GET", "/search", (_req, res) => {
      void toolEvents(t).then((events) => {
        seenWhileRunning = events.map((e) => (e.data as { status: string }).status);
        res.writeHead(200, { "content-type": "text/plain" }).end("found");
      });
    });
    const res = await rpcCall(t, serverId, "search", '{"q":"cats"}');
    expect(res.body.result.content[0].text).toBe("found");
    expect(seenWhileRunning).toEqual(["started"]);
    await callEndingsWritten(); // the ending follows the answer (below)
    const [event] = await toolEvents(t);
    expect(event.data).toMatchObject({ status: "finished", outcome: "ok", tool: "search", argumentsSize: 12, argumentsSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(event.data).toMatchObject({ resultSize: expect.any(Number), resultSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("when the audit insert fails (a trigger refuses it), neither the HTTP API nor the upstream MCP server gets a request", async () => {
    const { t, serverId } = await setup();
    const name = `refuse_tool_audit_${t.org.id.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
    await db().$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log refuses writes'; END $$`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.org_id = '${t.org.id}' AND NEW.action = 'tool.call') EXECUTE FUNCTION ${name}()`,
    );
    try {
      const seenBefore = httpApi.seen.length;
      const callsBefore = upstreamCalls();
      for (const [tool, args] of [["search", '{"q":"cats"}'], ["echo", '{"text":"hi"}']]) {
        const res = await rpcCall(t, serverId, tool, args);
        expect(res.body.error?.code, JSON.stringify(res.body)).toBe(-32603);
        expect(res.body.error.message).toContain("could not be recorded in the audit log");
      }
      const caller = (await callerFromBearer(t.member.token))!;
      const view = (await resolveCallerView(caller, serverId))!;
      await expect(callTool({ caller, view, tool: view.toolsByExposedName.get("echo")!, args: {} })).rejects.toMatchObject({ code: "unavailable" });
      expect(httpApi.seen.length).toBe(seenBefore);
      expect(upstreamCalls()).toBe(callsBefore);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON audit_events`);
      await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
    // With the audit log writable again, the same call goes through.
    const res = await rpcCall(t, serverId, "echo", '{"text":"hi"}');
    expect(JSON.parse(res.body.result.content[0].text).args).toEqual({ text: "hi" });
  });
});

describe("the ending is written after the answer (issue 22 point 4)", () => {
  /** A trigger on this org's tool.call rows: `body` runs before each UPDATE (an ending's merge). */
  async function withEndingTrigger(t: Tenant, body: string, run: () => Promise<void>) {
    const name = `ending_trigger_${t.org.id.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
    await db().$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body}; RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE UPDATE ON audit_events FOR EACH ROW WHEN (NEW.org_id = '${t.org.id}' AND NEW.action = 'tool.call') EXECUTE FUNCTION ${name}()`);
    try {
      await run();
    } finally {
      await callEndingsWritten();
      await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON audit_events`);
      await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
  }

  async function ownersView(t: Tenant) {
    const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/audit?action=tool.call`);
    expect(res.status, res.text).toBe(200);
    return res.body.items as Array<{ data: Record<string, unknown>; toolCall: { outcome: string } }>;
  }

  it("a slow ending does not hold the answer back, and the audit API still shows how the call ended", async () => {
    const { t, serverId } = await setup();
    await withEndingTrigger(t, "PERFORM pg_sleep(4)", async () => {
      const started = performance.now();
      const res = await rpcCall(t, serverId, "search", '{"q":"cats"}');
      expect(res.body.result.content[0].text).toBe("found");
      expect(performance.now() - started).toBeLessThan(3_000);
    });
    const [event] = await ownersView(t);
    expect(event.data).toMatchObject({ status: "finished", outcome: "ok" });
    expect(event.toolCall.outcome).toBe("ok");
  });

  it("a call whose ending is never written (the instance stopped in between) stays in the log, outcome unknown", async () => {
    const { t, serverId } = await setup();
    await withEndingTrigger(t, "RAISE EXCEPTION 'the instance stopped'", async () => {
      const res = await rpcCall(t, serverId, "search", '{"q":"cats"}');
      expect(res.body.result.content[0].text).toBe("found");
    });
    const [event] = await ownersView(t);
    expect(event.data).toMatchObject({ status: "started", tool: "search" });
    expect(event.toolCall.outcome).toBe("started");
    // Filtered as such, and shown as "Outcome unknown" on the audit page.
    const unknown = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/audit?outcome=started`);
    expect(unknown.body.items).toHaveLength(1);
  });
});
