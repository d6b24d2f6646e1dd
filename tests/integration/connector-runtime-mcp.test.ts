import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { db } from "@/lib/db/client";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import type { HostResourcesHandlers } from "@/lib/host-resources";
import type { ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { handleHostResourcesList, handleHostResourcesRead } from "@/lib/host-resources";
import { HOST_RESOURCES_EXTENSION as HOST_RESOURCES_CAPABILITY_ID, LIST_METHOD as HOST_RESOURCES_LIST_METHOD, READ_METHOD as HOST_RESOURCES_READ_METHOD } from "@/packages/host-resources/src/protocol";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { type RecordedUpstream, startV1Upstream, startV2Upstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 3 "Tool calls for real" (mcp connectors) and issue 5 "The extension, host side", with
 * real upstream MCP servers on 127.0.0.1: a 2025-era one (v1 SDK) and a 2026-07-28 one (v2 SDK).
 */

const UPSTREAM_SECRET = "Bearer upstream-secret-51c0d9";
const realHandlers: HostResourcesHandlers = { read: handleHostResourcesRead, list: handleHostResourcesList };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

function newPool(options: Partial<ConstructorParameters<typeof UpstreamPool>[0]> = {}): UpstreamPool {
  const pool = new UpstreamPool({ hostResources: realHandlers, ...options });
  cleanups.push(() => pool.closeAll());
  return pool;
}

async function upstream(era: "2025" | "2026"): Promise<RecordedUpstream> {
  const started = era === "2025" ? await startV1Upstream() : await startV2Upstream();
  cleanups.push(() => started.stop());
  return started;
}

/** An mcp connector on `up` created through the admin API, assigned to a new server. */
async function setup(up: RecordedUpstream, pool: UpstreamPool, tenant?: Tenant) {
  const t = tenant ?? (await createTenant());
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "Docs",
    type: "mcp",
    config: { url: up.url, headers: { Authorization: UPSTREAM_SECRET } },
  });
  expect(connector.status).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector.body.id] });
  expect(server.status).toBe(201);
  const call = async (name: string, args: Record<string, unknown> = {}, token = t.member.token): Promise<ToolCallResult> => {
    const caller = (await callerFromBearer(token))!;
    const view = (await resolveCallerView(caller, server.body.id))!;
    const tool = view.toolsByExposedName.get(name)!;
    expect(tool).toBeDefined();
    return callTool({ caller, view, tool, args }, pool);
  };
  const owner = (userId: string | null): UpstreamOwner => ({ orgId: t.org.id, workspaceId: t.workspace.id, userId, connectorId: connector.body.id });
  return { t, connectorId: connector.body.id as string, serverId: server.body.id as string, call, owner };
}

const text = (r: ToolCallResult) => r.content.map((c) => ("text" in c ? c.text : "")).join("");
const json = (r: ToolCallResult) => JSON.parse(text(r));

describe("mcp tools: the call is forwarded to the upstream server", () => {
  it.each(["2025", "2026"] as const)("%s-era upstream: tools/call with the tool's own upstream name and the arguments", async (era) => {
    const up = await upstream(era);
    const pool = newPool();
    const { call } = await setup(up, pool);
    const result = await call("echo", { text: "hello" });
    expect(result.isError).toBeUndefined();
    expect(json(result).args).toEqual({ text: "hello" });
    const calls = up.messages.filter((m) => m.method === "tools/call");
    expect(calls.map((m) => m.params.name)).toEqual(["echo"]);
  });

  it("the exposed name may differ (a clash is prefixed); the upstream still gets its own name", async () => {
    const [a, b] = [await upstream("2025"), await upstream("2026")];
    const pool = newPool();
    const first = await setup(a, pool);
    // A second connector with the same tool names on the same server: names get slug prefixes.
    const second = await api(first.t.admin.token).post(`/api/v1/orgs/${first.t.org.id}/connectors`, { name: "Wiki", type: "mcp", config: { url: b.url } });
    await api(first.t.admin.token).put(`/api/v1/servers/${first.serverId}/connectors`, { connectorIds: [first.connectorId, second.body.id] });
    const result = await first.call("wiki_echo", { text: "x" });
    expect(json(result).args).toEqual({ text: "x" });
    expect(b.messages.filter((m) => m.method === "tools/call").map((m) => m.params.name)).toEqual(["echo"]);
    expect(a.messages.some((m) => m.method === "tools/call")).toBe(false);
  });

  it("an upstream isError result comes back as isError, and the call is audited as isError", async () => {
    const up = await upstream("2025");
    const { call, t, serverId, connectorId } = await setup(up, newPool());
    const result = await call("fails");
    expect(result).toEqual({ content: [{ type: "text", text: "nope" }], isError: true });
    await callEndingsWritten(); // endings follow the answers
    const [event] = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" } });
    expect(event.data).toMatchObject({ serverId, connectorId, tool: "fails", status: "finished", outcome: "isError", argumentsSize: 2 });
  });

  it("arguments are validated against the tool's input schema first: nothing reaches the upstream", async () => {
    const up = await upstream("2025");
    const { call } = await setup(up, newPool());
    const result = await call("echo", { text: 5 });
    expect(result).toEqual({ content: [{ type: "text", text: "Invalid arguments: /text must be string" }], isError: true });
    expect(up.messages.some((m) => m.method === "tools/call")).toBe(false);
  });
});

describe("mcp tools: one outbound connection per (workspace, user, connector), reused", () => {
  it("the same user's calls reuse one connection; another user, and the instance credential, get their own", async () => {
    const up = await upstream("2025");
    const pool = newPool();
    const { call, t, owner } = await setup(up, pool);
    const initializesAfterDiscovery = up.initializes().length;
    const s1 = json(await call("echo", { text: "1" })).session;
    const s2 = json(await call("echo", { text: "2" })).session;
    expect(s1).toEqual(expect.any(String));
    expect(s2).toBe(s1);
    expect(up.initializes().length).toBe(initializesAfterDiscovery + 1);
    const s3 = json(await call("echo", { text: "3" }, t.admin.token)).session;
    const s4 = json(await call("echo", { text: "4" }, INSTANCE_KEY)).session;
    expect(new Set([s1, s3, s4]).size).toBe(3);
    expect(up.initializes().length).toBe(initializesAfterDiscovery + 3);
    const [member, admin, instance] = await Promise.all([pool.connectionFor(owner(t.member.user.id)), pool.connectionFor(owner(t.admin.user.id)), pool.connectionFor(owner(null))]);
    expect(member?.protocolVersion).toMatch(/^2025-/);
    expect(member?.transport.sessionId).toBe(s1);
    expect(admin?.transport.sessionId).toBe(s3);
    expect(instance?.transport.sessionId).toBe(s4);
  });

  it("concurrent first calls of one user share one connection", async () => {
    const up = await upstream("2025");
    const { call } = await setup(up, newPool());
    const before = up.initializes().length;
    const sessions = await Promise.all([1, 2, 3].map((i) => call("echo", { text: String(i) }).then((r) => json(r).session)));
    expect(new Set(sessions).size).toBe(1);
    expect(up.initializes().length).toBe(before + 1);
  });

  it("an idle connection is closed after the idle timeout; the next call opens a new one", async () => {
    const up = await upstream("2025");
    const pool = newPool({ idleMs: 50 });
    const { call, t, owner } = await setup(up, pool);
    const s1 = json(await call("echo")).session;
    await vi.waitFor(async () => expect(await pool.connectionFor(owner(t.member.user.id))).toBeNull(), { timeout: 5000, interval: 20 });
    const s2 = json(await call("echo")).session;
    expect(s2).not.toBe(s1);
  });

  it("a change of the connector's headers closes the connection; the next call uses the new headers", async () => {
    const up = await upstream("2025");
    const pool = newPool();
    const { call, t, connectorId } = await setup(up, pool);
    const s1 = json(await call("echo")).session;
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { config: { headers: { Authorization: "Bearer rotated-7e1f" } } });
    expect(patched.status).toBe(200);
    const s2 = json(await call("echo")).session;
    expect(s2).not.toBe(s1);
    // An unrelated change of the org's configuration keeps the connection.
    await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Other" });
    expect(json(await call("echo")).session).toBe(s2);
  });
});

describe("mcp tools: a dead upstream", () => {
  it("is a clear isError result; the connection is dropped and rebuilt once the upstream is back", async () => {
    const up = await upstream("2025");
    const pool = newPool();
    const { call, t, owner } = await setup(up, pool);
    expect(json(await call("echo")).session).toEqual(expect.any(String));
    await up.stop();
    const dead = await call("echo");
    expect(dead.isError).toBe(true);
    expect(text(dead)).toMatch(/^The upstream MCP server (is unreachable|could not be reached)/);
    expect(text(dead)).not.toContain(UPSTREAM_SECRET);
    expect(await pool.connectionFor(owner(t.member.user.id))).toBeNull();
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" }, orderBy: { createdAt: "asc" } });
    expect((events.at(-1)!.data as { outcome: string }).outcome).toBe("error");
    await up.start();
    const back = await call("echo", { text: "again" });
    expect(back.isError).toBeUndefined();
    expect(json(back).args).toEqual({ text: "again" });
  });

  it("an upstream that restarted and forgot our session: the call goes through on a new session", async () => {
    const up = await upstream("2025");
    const { call } = await setup(up, newPool());
    const s1 = json(await call("echo")).session;
    await up.stop();
    await up.start();
    const result = await call("echo", { text: "after restart" });
    expect(result.isError).toBeUndefined();
    expect(json(result).session).not.toBe(s1);
    expect(up.messages.filter((m) => m.method === "tools/call" && m.params.arguments?.text === "after restart")).toHaveLength(2);
  });
});

describe("host-resources extension (seed 000): claimed on 2025-era connections only", () => {
  it("Capability: the initialize request of a 2025-era connection carries the extension object exactly", async () => {
    const up = await upstream("2025");
    const { call } = await setup(up, newPool());
    await call("echo");
    const init = up.initializes().at(-1)!;
    expect(init.params.capabilities.extensions).toEqual({
      [HOST_RESOURCES_CAPABILITY_ID]: {
        read: { enabled: true, range: false, maxSize: 10485760 },
        list: { enabled: true },
        write: { enabled: false },
        schemes: ["files"],
      },
    });
    // Mirrored for v1 servers that keep only `experimental`.
    expect(init.params.capabilities.experimental[HOST_RESOURCES_CAPABILITY_ID]).toEqual(init.params.capabilities.extensions[HOST_RESOURCES_CAPABILITY_ID]);
  });

  it("Which connections can use it: a 2026-07-28 connection claims nothing in any request", async () => {
    const up = await upstream("2026");
    const pool = newPool();
    const { call, t, owner } = await setup(up, pool);
    const before = up.messages.length;
    await call("echo", { text: "modern" });
    expect((await pool.connectionFor(owner(t.member.user.id)))?.protocolVersion).toBe("2026-07-28");
    const ours = up.messages.slice(before);
    expect(ours.some((m) => m.method === "tools/call")).toBe(true);
    expect(ours.some((m) => m.method === "initialize")).toBe(false);
    for (const m of ours) {
      const caps = m.params?._meta?.["io.modelcontextprotocol/clientCapabilities"];
      if (m.method === "tools/call") expect(caps).toBeDefined();
      expect(JSON.stringify(caps ?? {})).not.toContain(HOST_RESOURCES_CAPABILITY_ID);
    }
    expect(JSON.stringify(ours)).not.toContain(HOST_RESOURCES_CAPABILITY_ID);
  });

  it("Errors: reading an unknown files:// URI reaches the upstream as -32002 with data { uri }", async () => {
    const up = await upstream("2025");
    const { call } = await setup(up, newPool());
    const uri = "files://fl_0123456789abcdef01234567";
    const result = await call("host_call", { method: HOST_RESOURCES_READ_METHOD, params: { uri } });
    expect(json(result)).toEqual({ error: { code: -32002, data: { uri } } });
  });

  it("Errors: -32602, -32004 and -32005 reach the upstream with their data unchanged; other failures are -32603", async () => {
    const up = await upstream("2025");
    const seen: Array<{ ctx: unknown; params: unknown }> = [];
    const stub: HostResourcesHandlers = {
      async read(ctx, params) {
        seen.push({ ctx, params });
        const uri = (params as { uri: string }).uri;
        if (uri === "s3://x") throw Object.assign(new Error("Unsupported URI scheme"), { code: -32602, data: { uri, supported: ["files"] } });
        if (uri === "files://busy") throw Object.assign(new Error("Rate limited"), { code: -32004, data: { retryAfterMs: 1234 } });
        if (uri === "files://huge") throw Object.assign(new Error("Too large"), { code: -32005, data: { uri, size: 11534336, maxSize: 10485760 } });
        throw new Error("database exploded at /var/secret/path");
      },
      async list(_ctx, params) {
        return { resources: [{ uri: "files://fl_1", name: "echo.txt", description: JSON.stringify(params) }] };
      },
    };
    const { call, t, connectorId } = await setup(up, newPool({ hostResources: stub }));
    const read = async (uri: string) => json(await call("host_call", { method: HOST_RESOURCES_READ_METHOD, params: { uri } }));
    expect(await read("s3://x")).toEqual({ error: { code: -32602, data: { uri: "s3://x", supported: ["files"] } } });
    expect(await read("files://busy")).toEqual({ error: { code: -32004, data: { retryAfterMs: 1234 } } });
    expect(await read("files://huge")).toEqual({ error: { code: -32005, data: { uri: "files://huge", size: 11534336, maxSize: 10485760 } } });
    expect(await read("files://boom")).toEqual({ error: { code: -32603 } });
    // The handlers run with the connection's owner as their scope.
    expect(seen[0].ctx).toEqual({ orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id, connectorId });
    // Loose params: list's _meta.filter reaches the handler as sent.
    const filter = { mimeType: "application/pdf", tags: ["contracts"] };
    const listed = json(await call("host_call", { method: HOST_RESOURCES_LIST_METHOD, params: { _meta: { filter } } }));
    expect(JSON.parse(listed.result.resources[0].description)).toMatchObject({ _meta: { filter } });
  });

  it("the instance credential's connection serves the methods with no user", async () => {
    const up = await upstream("2025");
    const seen: unknown[] = [];
    const stub: HostResourcesHandlers = {
      read: async (ctx) => (seen.push(ctx), { contents: [] }),
      list: async () => ({ resources: [] }),
    };
    const { call } = await setup(up, newPool({ hostResources: stub }));
    expect(json(await call("host_call", { method: HOST_RESOURCES_READ_METHOD, params: { uri: "files://x" } }, INSTANCE_KEY))).toEqual({ result: { contents: [] } });
    expect(seen).toEqual([expect.objectContaining({ userId: null })]);
  });
});
