import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1, postRaw, rpcError, type WireLog } from "@/tests/helpers/mcp-clients";
import { startMcpUpstream } from "@/tests/helpers/mcp-upstream";
import { uriOf } from "@/tests/helpers/resource-scenario";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Seed 004 "Stateful sessions" with MCP_STATEFUL_SESSIONS=true, over real HTTP with a 2025-era
 * (v1 SDK) client: the resource set and the initialize instructions are a snapshot taken at
 * session creation and kept until the client re-initializes, while the tools of the same live
 * session follow connector edits, connector reloads and assignment changes. Also: our
 * resources/read answers -32002 { uri } inside a session, as on every 2025-era connection.
 */

const previous = { stateful: process.env.MCP_STATEFUL_SESSIONS, interval: process.env.MCP_RECONCILE_INTERVAL_MS };
// Stateful sessions: resources/subscribe and the session's resource list live only in one; a 100 ms reconcile (default 2 s) so a change shows at once.
process.env.MCP_STATEFUL_SESSIONS = "true";
process.env.MCP_RECONCILE_INTERVAL_MS = "100";

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(async () => {
  await app.close();
  for (const [name, value] of [["MCP_STATEFUL_SESSIONS", previous.stateful], ["MCP_RECONCILE_INTERVAL_MS", previous.interval]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

async function ok<T = any>(promise: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> {
  const res = await promise;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** A server with one http connector that has instructions, a stored resource and a skill. */
async function scenario() {
  const t = await createTenant();
  const crm = await ok(
    api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "CRM",
      instructions: "CRM notes v1.",
      config: { baseUrl: "https://api.example.com" },
      tools: [{ name: "get_customer", request: { method: "GET", path: "/customers" } }],
    }),
    201,
  );
  const stored = await ok(api(t.admin.token).post(`/api/v1/connectors/${crm.id}/resources`, { uri: "crm://schema", name: "Schema", fetchConfig: { text: "schema v1" } }), 201);
  const server = await ok(api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", instructions: "Server v1.", connectorIds: [crm.id] }), 201);
  return { t, crmId: crm.id as string, storedId: stored.id as string, serverId: server.id as string, url: `${app.origin}/mcp/${server.id}` };
}

/** Everything a session's resources show: the list, then the text of every listed resource. */
async function resourcesOf(client: Awaited<ReturnType<typeof connectV1>>["client"]) {
  const { resources } = await client.listResources();
  const texts: Record<string, string> = {};
  for (const r of resources) texts[r.uri] = ((await client.readResource({ uri: r.uri })).contents[0] as { text: string }).text;
  return { uris: resources.map((r) => r.uri), texts };
}

describe("Stateful sessions (MCP_STATEFUL_SESSIONS=true)", () => {
  it("resources/read in a live session: not found is -32002 { uri } on the wire, the same for a hidden and a missing URI", async () => {
    const { t, crmId, serverId, url } = await scenario();
    // A plain member whose role grants no CRM tool.
    const billing = await ok(
      api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
        type: "http",
        name: "Billing",
        config: { baseUrl: "https://api.example.com" },
        tools: [{ name: "list_invoices", request: { method: "GET", path: "/invoices" } }],
      }),
      201,
    );
    await ok(api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [crmId, billing.id] }));
    const role = await ok(api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Billing", tools: [{ connectorId: billing.id, tool: "list_invoices" }] }), 201);
    await ok(api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.id }));

    const wire: WireLog = { messages: [] };
    const session = await connectV1(url, t.member.token, {}, wire);
    try {
      expect(session.transport.sessionId).toEqual(expect.any(String));
      const uris = ["crm://schema", uriOf.connector(serverId, crmId), "crm://never-existed"];
      for (const uri of uris) expect(await rpcError(session.client.readResource({ uri }))).toMatchObject({ code: -32002, data: { uri } });
      await vi.waitFor(() => expect(wire.messages.filter((m) => m.error)).toHaveLength(uris.length));
      expect(wire.messages.filter((m) => m.error).map((m) => m.error)).toEqual(uris.map((uri) => ({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } })));
    } finally {
      await session.close();
    }
  });

  it("A live stateful session keeps that snapshot until the client re-initializes: edited instructions, stored text, a new resource and the knowledge graph appear only after a new initialize, while its tools follow", async () => {
    const { t, crmId, storedId, serverId, url } = await scenario();
    const live = await connectV1(url, t.admin.token);
    const changed = vi.fn();
    live.client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
    try {
      const initialInstructions = live.client.getInstructions();
      expect(initialInstructions).toBe("Server v1.\n\n## CRM\n\nCRM notes v1.");
      const before = await resourcesOf(live.client);
      expect(before.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crmId), "crm://schema"]);

      // Every kind of change that would alter the resources or the instructions, plus a tool edit.
      await ok(api(t.admin.token).patch(`/api/v1/servers/${serverId}`, { instructions: "Server v2." }));
      await ok(api(t.admin.token).patch(`/api/v1/resources/${storedId}`, { fetchConfig: { text: "schema v2" } }));
      await ok(api(t.admin.token).post(`/api/v1/connectors/${crmId}/resources`, { uri: "crm://added", name: "Added", fetchConfig: { text: "added" } }), 201);
      await ok(api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "New skill", content: "Be brief." }), 201);
      await ok(api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}`, { knowledgeGraphEnabled: true }));
      await ok(
        api(t.admin.token).patch(`/api/v1/connectors/${crmId}`, {
          instructions: "CRM notes v2.",
          tools: [
            { name: "get_customer", request: { method: "GET", path: "/customers" } },
            { name: "list_orders", request: { method: "GET", path: "/orders" } },
          ],
        }),
      );

      // Tools reconcile: the session is told, and lists the new tool.
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
      expect((await live.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer", "list_orders"]);
      // Resources and instructions do not: the same list, the same bytes, nothing new readable.
      expect(await resourcesOf(live.client)).toEqual(before);
      expect(live.client.getInstructions()).toBe(initialInstructions);
      for (const uri of ["crm://added", uriOf.graph(serverId)]) expect(await rpcError(live.client.readResource({ uri }))).toMatchObject({ code: -32002, data: { uri } });
    } finally {
      await live.close();
    }

    // A client that re-initializes gets a new snapshot.
    const fresh = await connectV1(url, t.admin.token);
    try {
      const instructions = "Server v2.\n\n## CRM\n\nCRM notes v2.\n\n## Skill: New skill\n\nBe brief.";
      expect(fresh.client.getInstructions()).toBe(instructions);
      const after = await resourcesOf(fresh.client);
      expect(after.uris).toEqual([uriOf.instructions(serverId), uriOf.connector(serverId, crmId), uriOf.graph(serverId), "crm://schema", "crm://added"]);
      expect(after.texts).toMatchObject({ [uriOf.instructions(serverId)]: instructions, [uriOf.connector(serverId, crmId)]: "CRM notes v2.", "crm://schema": "schema v2", "crm://added": "added" });
    } finally {
      await fresh.close();
    }
  });

  it("Connector reloads and assignment changes reconcile a live session's tools, not its resources or instructions", async () => {
    const upstream = await startMcpUpstream({ tools: [{ name: "search" }] });
    try {
      const { t, crmId, serverId, url } = await scenario();
      const docs = await ok(
        api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Docs", instructions: "Docs notes v1.", config: { url: upstream.url, toolApproval: false } }),
        201,
      );
      await ok(api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [crmId, docs.id] }));
      const live = await connectV1(url, t.admin.token);
      const changed = vi.fn();
      live.client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      try {
        const instructions = live.client.getInstructions();
        const before = await resourcesOf(live.client);
        expect(before.uris).toContain(uriOf.connector(serverId, docs.id));
        expect((await live.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer", "search"]);

        // A reload that finds a new upstream tool (and an instructions edit of the same connector).
        upstream.tools.push({ name: "fetch_page" });
        await ok(api(t.admin.token).patch(`/api/v1/connectors/${docs.id}`, { instructions: "Docs notes v2." }));
        await ok(api(t.admin.token).post(`/api/v1/connectors/${docs.id}/reload`, {}));
        await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
        expect((await live.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer", "search", "fetch_page"]);
        expect(await resourcesOf(live.client)).toEqual(before);
        expect(live.client.getInstructions()).toBe(instructions);

        // An assignment change: the CRM connector leaves the server.
        changed.mockClear();
        await ok(api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [docs.id] }));
        await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 10_000 });
        expect((await live.client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch_page"]);
        expect(await resourcesOf(live.client)).toEqual(before);
        expect(live.client.getInstructions()).toBe(instructions);
      } finally {
        await live.close();
      }
      // Re-initialized: the new assignment and the new instructions.
      const fresh = await postRaw(url, INIT, { authorization: `Bearer ${t.admin.token}` });
      expect(fresh.body.result.instructions).toBe("Server v1.\n\n## Docs\n\nDocs notes v2.");
    } finally {
      await upstream.close();
    }
  });
});
