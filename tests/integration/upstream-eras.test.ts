import { afterEach, describe, expect, it } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { handleHostResourcesList, handleHostResourcesRead } from "@/lib/host-resources";
import { HOST_RESOURCES_EXTENSION } from "@/packages/host-resources/src/protocol";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { type RecordedUpstream, startSseUpstream, startV1Upstream, startV2Upstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 12 point 6, per connector: "the protocol era (auto — today's probe —, pinned
 * 2025-11-25, pinned 2026-07-28) … the legacy HTTP+SSE transport (2024-11-05) besides
 * Streamable HTTP", with real upstream MCP servers on 127.0.0.1: a 2025-era v1 SDK server, a
 * v2 SDK server that serves both eras, and a v1 SDK server on HTTP+SSE.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function started(up: Promise<RecordedUpstream>): Promise<RecordedUpstream> {
  const upstream = await up;
  cleanups.push(() => upstream.stop());
  return upstream;
}

function newPool(): UpstreamPool {
  const pool = new UpstreamPool({ hostResources: { read: handleHostResourcesRead, list: handleHostResourcesList } });
  cleanups.push(() => pool.closeAll());
  return pool;
}

type UpstreamConfig = { protocolEra?: string; transport?: string };

async function createConnector(t: Tenant, up: RecordedUpstream, config: UpstreamConfig) {
  return api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: up.url, ...config } });
}

/** A connector on `up` with `config`, on a server, and a tool call through the pooled runtime. */
async function setup(up: RecordedUpstream, config: UpstreamConfig) {
  const t = await createTenant();
  const connector = await createConnector(t, up, config);
  expect(connector.status).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  const pool = newPool();
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> => {
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    return callTool({ caller, view, tool: view.toolsByExposedName.get(name)!, args }, pool);
  };
  const connection = () => pool.connectionFor({ orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id, connectorId: connector.body.id });
  return { t, connector: connector.body, call, connection };
}

const text = (r: ToolCallResult) => r.content.map((c) => ("text" in c ? c.text : "")).join("");
const methods = (up: RecordedUpstream) => up.messages.map((m) => m.method).filter(Boolean);

describe("protocol era per connector", () => {
  it("auto (the default) probes: a 2026-07-28 upstream is reached by server/discover, a 2025-era one by initialize", async () => {
    const modern = await started(startV2Upstream());
    const legacy = await started(startV1Upstream());
    const a = await setup(modern, {});
    expect(a.connector.config).toMatchObject({ protocolEra: "auto", transport: "streamable-http" });
    expect(a.connector.protocolVersion).toBe("2026-07-28");
    const b = await setup(legacy, {});
    expect(b.connector.protocolVersion).toBe("2025-11-25");
    expect(methods(legacy)).toContain("server/discover"); // probed, then fell back
    expect(text(await b.call("echo", { text: "hi" }))).toContain('"text":"hi"');
  });

  it("pinned 2025-11-25: initialize only, never the probe, even where the upstream also speaks 2026-07-28", async () => {
    const modern = await started(startV2Upstream());
    const { connector, call, connection } = await setup(modern, { protocolEra: "2025-11-25" });
    expect(connector.config.protocolEra).toBe("2025-11-25");
    expect(connector.protocolVersion).toBe("2025-11-25");
    expect(text(await call("echo", { text: "pinned" }))).toContain("pinned");
    expect((await connection())?.protocolVersion).toBe("2025-11-25");
    expect(methods(modern)).not.toContain("server/discover");
    expect(methods(modern).filter((m) => m === "initialize")).toHaveLength(2); // discovery, then the pooled connection
  });

  it("pinned 2025-11-25 refuses an upstream that answers another revision; auto accepts it", async () => {
    const older = await started(startV1Upstream({ protocolVersion: "2025-06-18" }));
    const t = await createTenant();
    const refused = await createConnector(t, older, { protocolEra: "2025-11-25" });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("2025-06-18");
    const accepted = await createConnector(t, older, {});
    expect(accepted.status).toBe(201);
    expect(accepted.body.protocolVersion).toBe("2025-06-18");
  });

  it("pinned 2026-07-28: server/discover must offer it — a 2025-era upstream is refused, a modern one serves tools", async () => {
    const legacy = await started(startV1Upstream());
    const t = await createTenant();
    const refused = await createConnector(t, legacy, { protocolEra: "2026-07-28" });
    expect(refused.status).toBe(422);
    expect(methods(legacy)).not.toContain("initialize"); // no fallback
    const modern = await started(startV2Upstream());
    const { connector, call, connection } = await setup(modern, { protocolEra: "2026-07-28" });
    expect(connector.protocolVersion).toBe("2026-07-28");
    expect(text(await call("echo", { text: "modern" }))).toContain("modern");
    expect((await connection())?.protocolVersion).toBe("2026-07-28");
    expect(methods(modern)).not.toContain("initialize");
  });

  it("changing the era reopens the pooled connection in the new era; reload re-discovers in it", async () => {
    const modern = await started(startV2Upstream());
    const { t, connector, call, connection } = await setup(modern, {});
    await call("echo");
    expect((await connection())?.protocolVersion).toBe("2026-07-28");
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${connector.id}`, { config: { protocolEra: "2025-11-25" } });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toEqual({ url: modern.url, protocolEra: "2025-11-25", transport: "streamable-http", toolApproval: true });
    await call("echo");
    expect((await connection())?.protocolVersion).toBe("2025-11-25");
    const reloaded = await api(t.admin.token).post(`/api/v1/connectors/${connector.id}/reload`, {});
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.protocolVersion).toBe("2025-11-25");
  });

  it("refuses an unknown era, and era or transport on an http connector", async () => {
    const t = await createTenant();
    const bad = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "X", type: "mcp", config: { url: "http://127.0.0.1:9/mcp", protocolEra: "2024-10-07" } });
    expect(bad.status).toBe(422);
    const http = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "H", type: "http", config: { baseUrl: "https://api.example.com" } });
    expect(http.body.config).toEqual({ baseUrl: "https://api.example.com" });
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${http.body.id}`, { config: { protocolEra: "2025-11-25" } });
    expect(patched.status).toBe(422);
  });
});

describe("legacy HTTP+SSE upstreams (2024-11-05)", () => {
  it("discovers and calls tools over HTTP+SSE, negotiating 2024-11-05, with the secret headers and the host-resources claim", async () => {
    const sse = await started(startSseUpstream({ protocolVersion: "2024-11-05" }));
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Old",
      type: "mcp",
      config: { url: sse.url, transport: "sse", headers: { Authorization: "Bearer sse-secret" } },
    });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({ url: sse.url, protocolEra: "auto", transport: "sse", toolApproval: true });
    expect(created.body.protocolVersion).toBe("2024-11-05");
    expect(created.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["echo", "host_call", "fails"]);
    expect(methods(sse)).not.toContain("server/discover"); // HTTP+SSE carries the 2025-era protocol only
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [created.body.id] });
    const caller = (await callerFromBearer(t.member.token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const result = await callTool({ caller, view, tool: view.toolsByExposedName.get("echo")!, args: { text: "over sse" } }, newPool());
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain("over sse");
    const pooledInit = sse.initializes().at(-1)!;
    expect(pooledInit.params.capabilities.extensions).toHaveProperty([HOST_RESOURCES_EXTENSION]);
    const list = await callTool({ caller, view, tool: view.toolsByExposedName.get("host_call")!, args: { method: "ai.nimblebrain/resources/list", params: {} } }, newPool());
    expect(JSON.parse(text(list))).toEqual({ result: { resources: [] } });
  });

  it("the SSE stream and each POST carry the connector's secret headers", async () => {
    const seen: Array<string | undefined> = [];
    const sse = await started(startSseUpstream({ onRequest: (req) => seen.push(req.headers.authorization) }));
    const t = await createTenant();
    const created = await createConnectorWithHeaders(t, sse);
    expect(created.status).toBe(201);
    expect(seen.length).toBeGreaterThanOrEqual(3); // GET stream, initialize, tools/list
    expect(new Set(seen)).toEqual(new Set(["Bearer sse-secret"]));
  });

  it("HTTP+SSE with the 2026-07-28 era is refused (422 on config.protocolEra), on create and on change", async () => {
    const sse = await started(startSseUpstream());
    const t = await createTenant();
    const refused = await createConnector(t, sse, { transport: "sse", protocolEra: "2026-07-28" });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("config.protocolEra");
    const created = await createConnector(t, sse, { transport: "sse", protocolEra: "2025-11-25" });
    expect(created.status).toBe(201);
    expect(created.body.protocolVersion).toBe("2025-11-25");
    const changed = await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { config: { protocolEra: "2026-07-28" } });
    expect(changed.status).toBe(422);
  });

  it("a Streamable HTTP connector pointed at an SSE-only server is refused (422): the transport is not guessed", async () => {
    const sse = await started(startSseUpstream());
    const t = await createTenant();
    const refused = await createConnector(t, sse, {});
    expect(refused.status).toBe(422);
  });
});

function createConnectorWithHeaders(t: Tenant, up: RecordedUpstream) {
  return api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "Old",
    type: "mcp",
    config: { url: up.url, transport: "sse", headers: { Authorization: "Bearer sse-secret" } },
  });
}
