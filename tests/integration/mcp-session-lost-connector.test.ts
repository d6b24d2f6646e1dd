import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1, rpcError, type ConnectedV1 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1ListUpstream, type ListUpstream } from "@/tests/helpers/v1-list-upstream";

/**
 * A stateful 2025-era session keeps the resource catalog it was initialized with; a connector
 * removed from the server, or one the caller's role stops granting, must not stay reachable
 * through it: reads, subscriptions, prompts/get and completions of that connector's upstream
 * are not found on the very next request, not routed to the live upstream.
 */

process.env.MCP_STATEFUL_SESSIONS = "true";
// No sweep during a test: the refusal must not wait for the session to adopt the new configuration.
process.env.MCP_RECONCILE_INTERVAL_MS = "600000";

let app: RouteServer;
let upstream: ListUpstream;
beforeAll(async () => {
  [app, upstream] = await Promise.all([startRouteServer(), startV1ListUpstream()]);
  const warm = await scenario();
  await (await connectV1(warm.url, warm.t.member.token)).close();
}, 120_000);
afterAll(async () => {
  delete process.env.MCP_STATEFUL_SESSIONS;
  delete process.env.MCP_RECONCILE_INTERVAL_MS;
  await Promise.all([app.close(), upstream.close()]);
});

async function ok(pending: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const res = await pending;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** A server with the upstream's connector (Memo) and an HTTP one (Billing) the member keeps. */
async function scenario() {
  const t = await createTenant();
  const admin = api(t.admin.token);
  const memo = await ok(admin.post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Memo", type: "mcp", config: { url: upstream.url } }), 201);
  const billing = await ok(
    admin.post(`/api/v1/orgs/${t.org.id}/connectors`, {
      type: "http",
      name: "Billing",
      config: { baseUrl: "https://api.example.com" },
      tools: [{ name: "list_invoices", request: { method: "GET", path: "/invoices" } }],
    }),
    201,
  );
  const server = await ok(admin.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Live", connectorIds: [memo.id, billing.id] }), 201);
  return { t, admin, memo, billing, serverId: server.id as string, url: `${app.origin}/mcp/${server.id}` };
}

const COMPLETE = { ref: { type: "ref/prompt" as const, name: "greet" }, argument: { name: "who", value: "A" } };
const BY_TEMPLATE = { ref: { type: "ref/resource" as const, uri: "memo://items/{id}" }, argument: { name: "id", value: "4" } };

/** Everything the session reaches of the Memo upstream works before the change. */
async function expectReachable(session: ConnectedV1) {
  expect((await session.client.readResource({ uri: "memo://note" })).contents[0]).toMatchObject({ text: "the note" });
  expect((await session.client.readResource({ uri: "memo://items/7" })).contents[0]).toMatchObject({ text: "item 7" });
  expect((await session.client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages[0].content).toEqual({ type: "text", text: "greet Ada" });
  expect((await session.client.complete(COMPLETE)).completion.values).toEqual(["A-done"]);
  expect((await session.client.complete(BY_TEMPLATE)).completion.values).toEqual(["4-done"]);
}

/** …and after it, each of them is not found, and the upstream hears nothing of it. */
async function expectNotFound(session: ConnectedV1) {
  const completionsBefore = upstream.completions.length;
  const subscribedBefore = [...upstream.subscribed];
  for (const uri of ["memo://note", "memo://items/7"]) expect(await rpcError(session.client.readResource({ uri }))).toMatchObject({ code: -32002, data: { uri } });
  expect(await rpcError(session.client.subscribeResource({ uri: "memo://note" }))).toMatchObject({ code: -32002, data: { uri: "memo://note" } });
  expect(await rpcError(session.client.getPrompt({ name: "greet", arguments: { who: "Ada" } }))).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt: greet") });
  expect((await session.client.complete(COMPLETE)).completion.values).toEqual([]);
  expect((await session.client.complete(BY_TEMPLATE)).completion.values).toEqual([]);
  expect(upstream.completions.length).toBe(completionsBefore);
  expect(upstream.subscribed).toEqual(subscribedBefore);
}

describe("a stateful session's frozen catalog follows the caller's access", () => {
  it("a connector removed from the server: its upstream resources, prompts and completions are not found on the next request", async () => {
    const { admin, t, billing, serverId, url } = await scenario();
    const session = await connectV1(url, t.member.token);
    try {
      await expectReachable(session);
      await ok(admin.put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [billing.id] }));
      await expectNotFound(session);
      // The session itself lives on with what it still has.
      expect((await session.client.listTools()).tools.map((tool) => tool.name)).toContain("list_invoices");
    } finally {
      await session.close();
    }
  });

  it("the caller's role stops granting the connector: the same refusals, while an admin's session still reaches it", async () => {
    const { admin, t, billing, url } = await scenario();
    const session = await connectV1(url, t.member.token);
    const adminSession = await connectV1(url, t.admin.token);
    try {
      await expectReachable(session);
      const role = await ok(admin.post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Billing only", tools: [{ connectorId: billing.id, tool: "list_invoices" }] }), 201);
      await ok(admin.patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.id }));
      await expectNotFound(session);
      await expectReachable(adminSession);
    } finally {
      await Promise.all([session.close(), adminSession.close()]);
    }
  });
});
