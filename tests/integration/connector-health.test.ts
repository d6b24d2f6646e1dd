import { afterEach, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { flushUsage } from "@/lib/usage/flush-usage";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { startMcpUpstream } from "@/tests/helpers/mcp-upstream";

/**
 * Issue 14 "connector health": last success, last failure with its message and latency, from
 * the tool calls themselves and from "Test connection", against upstreams this test stops and
 * restarts on the same port.
 */

const SECRET = "Bearer health-secret-0e5d2a77";
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function httpApi(port = 0): Promise<HttpApiStub> {
  const stub = await startHttpApi(port);
  stub.route("GET", "/v1/ping", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"pong":true}'));
  stub.route("GET", "/v1/health", (req, res) => res.writeHead(req.headers.authorization === SECRET ? 204 : 401).end());
  cleanups.push(() => stub.close());
  return stub;
}

const portOf = (origin: string) => Number(new URL(origin).port);

async function httpConnector(t: Tenant, origin: string) {
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "Billing",
    type: "http",
    config: { baseUrl: `${origin}/v1`, headers: { Authorization: SECRET } },
    tools: [{ name: "ping", request: { method: "GET", path: "/ping" } }],
  });
  expect(connector.status).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Billing", connectorIds: [connector.body.id] });
  const ping = async () => {
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    return callTool({ caller, view, tool: view.toolsByExposedName.get("ping")!, args: {} });
  };
  return { id: connector.body.id as string, ping };
}

describe("connector health from tool calls", () => {
  it("shows the last success with its latency, then the failure while the API is down, then success again", async () => {
    const t = await createTenant();
    let upstream = await httpApi();
    const port = portOf(upstream.origin);
    const connector = await httpConnector(t, upstream.origin);
    const health = async () => (await api(t.admin.token).get(`/api/v1/connectors/${connector.id}/health`)).body;

    expect(await health()).toMatchObject({ status: "unknown", lastSuccessAt: null, lastFailureAt: null, lastTest: null, probe: null });
    expect((await connector.ping()).isError).toBeUndefined();
    await flushUsage();
    const up = await health();
    expect(up.status).toBe("healthy");
    expect(Date.parse(up.lastSuccessAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(up.lastLatencyMs).toBeGreaterThanOrEqual(0);

    await upstream.close();
    expect((await connector.ping()).isError).toBe(true);
    await flushUsage();
    const down = await health();
    expect(down.status).toBe("failing");
    expect(down.lastFailureMessage).toContain("ECONNREFUSED");
    expect(down.lastSuccessAt).toBe(up.lastSuccessAt);

    upstream = await httpApi(port);
    expect((await connector.ping()).isError).toBeUndefined();
    await flushUsage();
    const back = await health();
    expect(back.status).toBe("healthy");
    expect(back.lastFailureMessage).toBe(down.lastFailureMessage);
    expect(Date.parse(back.lastSuccessAt)).toBeGreaterThan(Date.parse(down.lastFailureAt));
  });

  it("arguments refused before the call say nothing about the upstream", async () => {
    const t = await createTenant();
    const upstream = await httpApi();
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Strict",
      type: "http",
      config: { baseUrl: `${upstream.origin}/v1` },
      tools: [{ name: "ping", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, request: { method: "GET", path: "/ping" } }],
    });
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [created.body.id] });
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    expect((await callTool({ caller, view, tool: view.toolsByExposedName.get("ping")!, args: {} })).isError).toBe(true);
    await flushUsage();
    expect((await api(t.admin.token).get(`/api/v1/connectors/${created.body.id}/health`)).body.status).toBe("unknown");
  });
});

describe("Test connection", () => {
  it("http: sends the stored probe with the secret headers; a dead API fails with its reason, a live one passes", async () => {
    const t = await createTenant();
    let upstream = await httpApi();
    const port = portOf(upstream.origin);
    const connector = await httpConnector(t, upstream.origin);
    const admin = api(t.admin.token);

    expect((await admin.put(`/api/v1/connectors/${connector.id}/probe`, { method: "GET", path: "health" })).status).toBe(422);
    const probe = await admin.put(`/api/v1/connectors/${connector.id}/probe`, { method: "GET", path: "/health" });
    expect(probe.status).toBe(200);
    expect(probe.body.probe).toEqual({ method: "GET", path: "/health" });

    const live = await admin.post(`/api/v1/connectors/${connector.id}/test`);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: "healthy", lastTest: { ok: true, message: "GET /health answered HTTP 204 No Content." } });
    expect(upstream.seen.at(-1)).toMatchObject({ method: "GET", url: "/v1/health" });

    await upstream.close();
    const dead = await admin.post(`/api/v1/connectors/${connector.id}/test`);
    expect(dead.body.status).toBe("failing");
    expect(dead.body.lastTest.ok).toBe(false);
    expect(dead.body.lastFailureMessage).toContain("ECONNREFUSED");
    expect(dead.body.lastFailureMessage).not.toContain("health-secret");

    upstream = await httpApi(port);
    const again = await admin.post(`/api/v1/connectors/${connector.id}/test`);
    expect(again.body).toMatchObject({ status: "healthy", lastTest: { ok: true } });
    expect(again.body.lastFailureMessage).toBe(dead.body.lastFailureMessage);
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connector.test" } });
    expect(events).toHaveLength(3);
  });

  it("http: an answer of 400 or above fails the test with its status", async () => {
    const t = await createTenant();
    const upstream = await httpApi();
    const connector = await httpConnector(t, upstream.origin);
    await api(t.admin.token).put(`/api/v1/connectors/${connector.id}/probe`, { method: "HEAD", path: "/missing?x=1" });
    const result = await api(t.admin.token).post(`/api/v1/connectors/${connector.id}/test`);
    expect(result.body).toMatchObject({ status: "failing", lastTest: { ok: false, message: "HEAD /missing?x=1 answered HTTP 404 Not Found." } });
  });

  it("mcp: connects and lists the tools; stopped, it fails; restarted on its port, it passes", async () => {
    const t = await createTenant();
    let upstream = await startMcpUpstream({ tools: [{ name: "search" }, { name: "fetch" }] });
    cleanups.push(() => upstream.close());
    const port = Number(new URL(upstream.url).port);
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: upstream.url } });
    expect(created.status).toBe(201);
    const test = () => api(t.admin.token).post(`/api/v1/connectors/${created.body.id}/test`);

    const live = await test();
    expect(live.body.status).toBe("healthy");
    expect(live.body.lastTest.message).toMatch(/^Connected .*listed 2 tools\.$/);
    expect((await api(t.admin.token).put(`/api/v1/connectors/${created.body.id}/probe`, { method: "GET", path: "/" })).status).toBe(422);

    await upstream.close();
    const dead = await test();
    expect(dead.body).toMatchObject({ status: "failing", lastTest: { ok: false } });
    expect(dead.body.lastFailureMessage).toContain("could not be reached");

    upstream = await startMcpUpstream({ tools: [{ name: "search" }], port });
    const back = await test();
    expect(back.body).toMatchObject({ status: "healthy", lastTest: { ok: true } });
    expect(back.body.lastTest.message).toContain("listed 1 tool.");
  });

  it("another org's connector is 404 for health, probe and test", async () => {
    const t = await createTenant();
    const stranger = await createTenant();
    const upstream = await httpApi();
    const connector = await httpConnector(t, upstream.origin);
    const other = api(stranger.admin.token);
    expect((await other.get(`/api/v1/connectors/${connector.id}/health`)).status).toBe(404);
    expect((await other.post(`/api/v1/connectors/${connector.id}/test`)).status).toBe(404);
    expect((await other.put(`/api/v1/connectors/${connector.id}/probe`, { method: "GET", path: "/" })).status).toBe(404);
    expect((await api(t.member.token).post(`/api/v1/connectors/${connector.id}/test`)).status).toBe(404);
    expect(upstream.seen).toHaveLength(0);
  });
});

