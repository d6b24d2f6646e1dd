import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1, type ConnectedV1 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1ListUpstream, type ListUpstream } from "@/tests/helpers/v1-list-upstream";

/**
 * An open resource subscription — a 2025-era session's resources/subscribe, a 2026-07-28 listen
 * stream's resourceSubscriptions — lasts only while its caller still reaches the connector. The
 * caller's role stops granting it, or the connector leaves the server: the configuration change
 * rechecks the subscription, the upstream's update no longer reaches that caller (and its own
 * upstream connection is unsubscribed when it was the last holder), while a subscription that
 * kept its access still hears it. A revoked key's listen stream is closed.
 */

process.env.MCP_STATEFUL_SESSIONS = "true";
process.env.MCP_RECONCILE_INTERVAL_MS = "200";

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

const NOTE = "memo://note";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(pending: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const res = await pending;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/**
 * A server with an upstream's connector (Memo, tool `lookup`) and an HTTP one (Billing) everyone
 * keeps; each test has its own upstream, so its upstream subscriptions are exactly the test's.
 */
async function scenario(to = upstream) {
  const t = await createTenant();
  const admin = api(t.admin.token);
  const memo = await ok(admin.post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Memo", type: "mcp", config: { url: to.url } }), 201);
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
  const upstreamHolders = () => to.subscribed.filter((u) => u === NOTE).length;
  return { t, admin, memo, billing, serverId: server.id as string, url: `${app.origin}/mcp/${server.id}`, upstream: to, upstreamHolders };
}

/** The member no longer gets the Memo connector: a role granting only Billing's tool. */
async function roleWithoutMemo(s: Awaited<ReturnType<typeof scenario>>) {
  const role = await ok(s.admin.post(`/api/v1/orgs/${s.t.org.id}/roles`, { name: "Billing only", tools: [{ connectorId: s.billing.id, tool: "list_invoices" }] }), 201);
  await ok(s.admin.patch(`/api/v1/workspaces/${s.t.workspace.id}/members/${s.t.member.user.id}`, { mcpRoleId: role.id }));
}

/** A 2025-era session subscribed to the note, recording its updates and tool list changes. */
async function subscribedSession(url: string, token: string) {
  const session = await connectV1(url, token);
  const heard = { updates: 0, toolsChanged: 0 };
  session.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void heard.updates++);
  session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.toolsChanged++);
  await session.client.subscribeResource({ uri: NOTE });
  return { session, heard };
}

/** A 2026-07-28 listen stream with the note among its resourceSubscriptions. */
async function listening(url: string, token: string) {
  const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const heard = { updates: 0, toolsChanged: 0 };
  client.setNotificationHandler("notifications/resources/updated", () => void heard.updates++);
  client.setNotificationHandler("notifications/tools/list_changed", () => void heard.toolsChanged++);
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: [NOTE] });
  return { client, heard, subscription };
}

const closeAll = (sessions: Array<ConnectedV1 | V2Client>) => Promise.all(sessions.map((s) => s.close().catch(() => undefined)));

describe("open subscriptions follow the caller's access", () => {
  it("2025-era session: the member's role stops granting the connector — its updates stop and its upstream subscription ends; the admin's session still hears", async () => {
    const s = await scenario(await startV1ListUpstream());
    const { upstreamHolders } = s;
    const member = await subscribedSession(s.url, s.t.member.token);
    const admin = await subscribedSession(s.url, s.t.admin.token);
    try {
      expect(upstreamHolders()).toBe(2); // one upstream connection per user
      const holders = upstreamHolders();
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect([member.heard.updates, admin.heard.updates]).toEqual([1, 1]), { timeout: 5000 });
      await roleWithoutMemo(s);
      await vi.waitFor(() => expect(member.heard.toolsChanged).toBe(1), { timeout: 10_000 });
      await vi.waitFor(() => expect(upstreamHolders()).toBe(holders - 1), { timeout: 5000 });
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect(admin.heard.updates).toBe(2), { timeout: 5000 });
      await sleep(300);
      expect(member.heard.updates).toBe(1);
    } finally {
      await closeAll([member.session, admin.session]);
      await s.upstream.close();
    }
  });

  it("2025-era session: the connector removed from the server — that session's updates stop; the member's session on another server with it still hears (one upstream subscription, kept)", async () => {
    const s = await scenario(await startV1ListUpstream());
    const { upstreamHolders } = s;
    const other = await ok(s.admin.post(`/api/v1/workspaces/${s.t.workspace.id}/servers`, { name: "Other", connectorIds: [s.memo.id] }), 201);
    const removed = await subscribedSession(s.url, s.t.member.token);
    const kept = await subscribedSession(`${app.origin}/mcp/${other.id}`, s.t.member.token);
    try {
      const holders = upstreamHolders();
      await ok(s.admin.put(`/api/v1/servers/${s.serverId}/connectors`, { connectorIds: [s.billing.id] }));
      await vi.waitFor(() => expect(removed.heard.toolsChanged).toBe(1), { timeout: 10_000 });
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect(kept.heard.updates).toBe(1), { timeout: 5000 });
      await sleep(300);
      expect(removed.heard.updates).toBe(0);
      expect(upstreamHolders()).toBe(holders); // the kept session still holds the member's upstream subscription
    } finally {
      await closeAll([removed.session, kept.session]);
      await s.upstream.close();
    }
  });

  it("2026-07-28 listen stream: the member's role stops granting the connector — its stream stays open but hears no more updates; the admin's stream still hears", async () => {
    const s = await scenario(await startV1ListUpstream());
    const { upstreamHolders } = s;
    const member = await listening(s.url, s.t.member.token);
    const admin = await listening(s.url, s.t.admin.token);
    try {
      await vi.waitFor(() => expect(upstreamHolders()).toBe(2), { timeout: 5000 });
      const holders = upstreamHolders();
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect([member.heard.updates, admin.heard.updates]).toEqual([1, 1]), { timeout: 5000 });
      await roleWithoutMemo(s);
      await vi.waitFor(() => expect(member.heard.toolsChanged).toBe(1), { timeout: 10_000 });
      await vi.waitFor(() => expect(upstreamHolders()).toBe(holders - 1), { timeout: 5000 });
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect(admin.heard.updates).toBe(2), { timeout: 5000 });
      await sleep(300);
      expect(member.heard.updates).toBe(1);
    } finally {
      await Promise.all([member.subscription.close().catch(() => undefined), admin.subscription.close().catch(() => undefined)]);
      await closeAll([member.client, admin.client]);
      await s.upstream.close();
    }
  });

  it("2026-07-28 listen stream: the member's key revoked — its stream is closed and its upstream subscription released; the admin's stream still hears", async () => {
    const s = await scenario(await startV1ListUpstream());
    const { upstreamHolders } = s;
    const member = await listening(s.url, s.t.member.token);
    const admin = await listening(s.url, s.t.admin.token);
    try {
      await vi.waitFor(() => expect(upstreamHolders()).toBe(2), { timeout: 5000 });
      const holders = upstreamHolders();
      expect((await api(s.t.member.token).delete(`/api/v1/api-keys/${s.t.member.apiKeyId}`)).status).toBe(204);
      // Ended by the server ("remote" or "graceful"), not by this client.
      expect(await Promise.race([member.subscription.closed, sleep(10_000).then(() => "still open")])).not.toMatch(/local|still open/);
      await vi.waitFor(() => expect(upstreamHolders()).toBe(holders - 1), { timeout: 10_000 });
      await s.upstream.updated(NOTE);
      await vi.waitFor(() => expect(admin.heard.updates).toBe(1), { timeout: 5000 });
      await sleep(300);
      expect(member.heard.updates).toBe(0);
    } finally {
      await Promise.all([member.subscription.close().catch(() => undefined), admin.subscription.close().catch(() => undefined)]);
      await closeAll([member.client, admin.client]);
      await s.upstream.close();
    }
  });
});
