import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { createServer } from "@/lib/servers/servers";
import { CreateServerBody } from "@/lib/servers/schemas";
import { flushUsage } from "@/lib/usage/flush-usage";
import { api } from "@/tests/helpers/api";
import { browserSessionOf, createTenant, createWorkspace, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";

/**
 * Issue 14 "a usage picture": the numbers of the usage endpoints against a known sequence of
 * tool calls made here through the real connector runtime, on a real HTTP API. The counts are
 * buffered by the call path and written by a flush, never read from the audit log.
 */

const SECRET = "Bearer crm-usage-5b17c0de99";

let upstream: HttpApiStub;
beforeEach(async () => {
  upstream = await startHttpApi();
  upstream.route("GET", "/v1/fast", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  upstream.route("GET", "/v1/slow", (_req, res) => void setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), 400));
  // Many APIs quote the credential they refuse: the dashboard must not.
  upstream.route("GET", "/v1/broken", (req, res) => res.writeHead(500, { "content-type": "text/plain" }).end(`backend down (you sent ${req.headers.authorization})`));
});
afterEach(() => upstream.close());

const TOOLS = ["fast", "slow", "broken"].map((name) => ({ name, request: { method: "GET", path: `/${name}` } }));

async function setup(tenant: Tenant) {
  const connector = await api(tenant.admin.token).post(`/api/v1/orgs/${tenant.org.id}/connectors`, {
    name: "CRM",
    type: "http",
    config: { baseUrl: `${upstream.origin}/v1`, headers: { Authorization: SECRET } },
    tools: TOOLS,
  });
  expect(connector.status).toBe(201);
  const server = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name: "Support", connectorIds: [connector.body.id] });
  const other = await createWorkspace(tenant.org.id);
  const otherServer = await createServer(INSTANCE_CALLER, other.id, CreateServerBody.parse({ name: "Sales", connectorIds: [connector.body.id] }), "http://localhost");
  const call = async (token: string, name: string, serverId: string = server.body.id) => {
    const caller = (await callerFromBearer(token))!;
    const view = (await resolveCallerView(caller, serverId))!;
    return callTool({ caller, view, tool: view.toolsByExposedName.get(name)!, args: {} });
  };
  return { connectorId: connector.body.id as string, serverId: server.body.id as string, otherWorkspaceId: other.id, otherServerId: otherServer.id, call };
}

describe("usage: the dashboard's numbers", () => {
  it("counts calls, errors and p50/p95 per server, connector, tool and user, org-wide and per workspace", async () => {
    const tenant = await createTenant();
    const { connectorId, serverId, otherWorkspaceId, otherServerId, call } = await setup(tenant);
    for (let i = 0; i < 6; i++) await call(tenant.member.token, "fast");
    await call(tenant.member.token, "slow");
    await call(tenant.admin.token, "broken");
    await call(tenant.admin.token, "broken");
    await call(INSTANCE_KEY, "fast", otherServerId);

    // Nothing is written on the call path: the rows appear with the flush.
    expect(await db().usageBucket.count({ where: { orgId: tenant.org.id } })).toBe(0);
    await flushUsage();

    // The admin signed in (not through a key pinned to one workspace) reads the whole org.
    const org = await api(null).get(`/api/v1/orgs/${tenant.org.id}/usage?range=24h`, { headers: await browserSessionOf(tenant.admin.user) });
    expect(org.status).toBe(200);
    const report = org.body;
    expect(report.totals).toMatchObject({ calls: 10, errors: 2, errorRate: 0.2 });
    expect(report.totals.p50Ms).toBeLessThan(100);
    expect(report.totals.p95Ms).toBeGreaterThanOrEqual(300);
    expect(report.series).toHaveLength(24);
    expect(report.series.reduce((n: number, p: { calls: number }) => n + p.calls, 0)).toBe(10);
    expect(report.series.at(-1)).toMatchObject({ calls: 10, errors: 2 });

    const byName = (rows: Array<Record<string, any>>) => Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName(report.servers)).toMatchObject({ Support: { id: serverId, calls: 9, errors: 2 }, Sales: { id: otherServerId, calls: 1, errors: 0 } });
    expect(report.connectors).toEqual([expect.objectContaining({ id: connectorId, name: "CRM", calls: 10, errors: 2 })]);
    const tools = byName(report.tools);
    expect(tools.fast).toMatchObject({ connectorName: "CRM", calls: 7, errors: 0, errorRate: 0 });
    expect(tools.slow.p50Ms).toBeGreaterThanOrEqual(300);
    expect(tools.broken).toMatchObject({ calls: 2, errors: 2, errorRate: 1 });
    const users = Object.fromEntries(report.users.map((u: { id: string }) => [u.id, u]));
    expect(users[tenant.member.user.id]).toMatchObject({ calls: 7, errors: 0 });
    expect(users[tenant.admin.user.id].name).toContain(tenant.admin.user.email);
    expect(users[tenant.admin.user.id]).toMatchObject({ calls: 2, errors: 2, errorRate: 1 });
    expect(users[""]).toMatchObject({ name: "Instance credential", calls: 1 });

    expect(report.failingTools).toHaveLength(1);
    expect(report.failingTools[0]).toMatchObject({ tool: "broken", errors: 2 });
    expect(report.failingTools[0].lastError).toContain("backend down");
    expect(report.failingTools[0].lastError).not.toContain("crm-usage-5b17c0de99");

    const workspace = await api(tenant.admin.token).get(`/api/v1/workspaces/${tenant.workspace.id}/usage?range=7d`);
    expect(workspace.status).toBe(200);
    expect(workspace.body.totals).toMatchObject({ calls: 9, errors: 2 });
    expect(workspace.body.series).toHaveLength(28);
    expect(workspace.body.servers.map((s: { name: string }) => s.name)).toEqual(["Support"]);
    // The admin's key belongs to the first workspace; the instance credential reaches every one.
    const otherWs = await api(INSTANCE_KEY).get(`/api/v1/workspaces/${otherWorkspaceId}/usage?range=30d`);
    expect(otherWs.status, otherWs.text).toBe(200);
    expect(otherWs.body.totals).toMatchObject({ calls: 1, errors: 0 });
    expect(otherWs.body.series).toHaveLength(30);
  });

  it("an API key, which acts in its own workspace, reads org usage narrowed to that workspace; the signed-in admin and the instance read all", async () => {
    const tenant = await createTenant();
    const { serverId, otherServerId, call } = await setup(tenant);
    await call(tenant.member.token, "fast");
    await call(tenant.admin.token, "broken");
    await call(INSTANCE_KEY, "fast", otherServerId);
    await call(INSTANCE_KEY, "broken", otherServerId);
    await flushUsage();
    const path = `/api/v1/orgs/${tenant.org.id}/usage?range=24h`;

    const pinned = await api(tenant.admin.token).get(path);
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.body.totals).toMatchObject({ calls: 2, errors: 1 });
    expect(pinned.body.servers.map((s: { id: string }) => s.id)).toEqual([serverId]);
    expect(pinned.body.users.map((u: { id: string }) => u.id).sort()).toEqual([tenant.admin.user.id, tenant.member.user.id].sort());
    expect(pinned.body.failingTools.map((f: { errors: number }) => f.errors)).toEqual([1]);
    expect(pinned.body.series.reduce((n: number, p: { calls: number }) => n + p.calls, 0)).toBe(2);

    for (const whole of [await api(null).get(path, { headers: await browserSessionOf(tenant.admin.user) }), await api(INSTANCE_KEY).get(path)]) {
      expect(whole.status).toBe(200);
      expect(whole.body.totals).toMatchObject({ calls: 4, errors: 2 });
      expect(whole.body.servers.map((s: { id: string }) => s.id).sort()).toEqual([serverId, otherServerId].sort());
    }
  });

  it("flushes add up: calls counted after a flush join the same hourly row", async () => {
    const tenant = await createTenant();
    const { call } = await setup(tenant);
    await call(tenant.member.token, "fast");
    await flushUsage();
    await call(tenant.member.token, "fast");
    await call(tenant.member.token, "broken");
    await flushUsage();
    const rows = await db().usageBucket.findMany({ where: { orgId: tenant.org.id } });
    expect(rows.filter((r) => r.tool === "fast")).toEqual([expect.objectContaining({ calls: 2, errors: 0 })]);
    expect(rows.find((r) => r.tool === "fast")!.latencyBuckets.reduce((a, b) => a + b, 0)).toBe(2);
    const report = (await api(tenant.admin.token).get(`/api/v1/orgs/${tenant.org.id}/usage`)).body;
    expect(report.range).toBe("24h");
    expect(report.totals).toMatchObject({ calls: 3, errors: 1 });
  });

  it("an empty period answers zeros; a bad range is a 422", async () => {
    const tenant = await createTenant();
    const empty = await api(tenant.admin.token).get(`/api/v1/orgs/${tenant.org.id}/usage?range=30d`);
    expect(empty.status).toBe(200);
    expect(empty.body.totals).toEqual({ calls: 0, errors: 0, errorRate: 0, p50Ms: null, p95Ms: null });
    expect(empty.body.tools).toEqual([]);
    expect((await api(tenant.admin.token).get(`/api/v1/orgs/${tenant.org.id}/usage?range=1y`)).status).toBe(422);
  });

  it("another org's usage, or a plain member asking, is 404 like a missing org", async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    const { call } = await setup(tenant);
    await call(tenant.member.token, "fast");
    await flushUsage();
    expect((await api(stranger.admin.token).get(`/api/v1/orgs/${tenant.org.id}/usage`)).status).toBe(404);
    expect((await api(stranger.admin.token).get(`/api/v1/workspaces/${tenant.workspace.id}/usage`)).status).toBe(404);
    expect((await api(tenant.member.token).get(`/api/v1/orgs/${tenant.org.id}/usage`)).status).toBe(404);
    expect((await api(tenant.admin.token).get(`/api/v1/orgs/nope/usage`)).status).toBe(404);
    const own = await api(stranger.admin.token).get(`/api/v1/orgs/${stranger.org.id}/usage`);
    expect(own.body.totals.calls).toBe(0);
  });
});
