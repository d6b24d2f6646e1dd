import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { db } from "@/lib/db/client";
import { MAX_SUBSCRIPTIONS } from "@/lib/mcp/serve/protocol/build-server";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1ListUpstream, UPSTREAM_INSTRUCTIONS, type ListUpstream } from "@/tests/helpers/v1-list-upstream";

/**
 * Issue 12 with a 2025-era v1 SDK upstream that changes while clients are connected: its
 * prompts, resources and templates through the gateway, completion/complete routed to it,
 * resources/subscribe forwarded and notifications/resources/updated relayed to the
 * subscribed session, and the upstream's list_changed re-discovering the connector and
 * reaching live 2025-era sessions and 2026-07-28 subscriptions.
 */

process.env.MCP_STATEFUL_SESSIONS = "true";
process.env.MCP_RECONCILE_INTERVAL_MS = "100";
// Pooled upstream connections idle for a second are dropped (read when the pool is created).
process.env.UPSTREAM_IDLE_SEC = "1";

let app: RouteServer;
let upstream: ListUpstream;
beforeAll(async () => {
  [app, upstream] = await Promise.all([startRouteServer(), startV1ListUpstream()]);
  // The first connector creation and MCP request of a worker load the routes and the SDKs:
  // paid here, not inside the first test's time limit.
  const warm = await scenario();
  await (await connectV1(warm.url, warm.t.member.token)).close();
}, 120_000);
afterAll(async () => {
  delete process.env.MCP_STATEFUL_SESSIONS;
  delete process.env.UPSTREAM_IDLE_SEC;
  await Promise.all([app.close(), upstream.close()]);
});

/** A 2026-07-28 SDK v2 client of `url`. */
async function connectV2(url: string, token: string): Promise<V2Client> {
  const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

async function scenario(to: ListUpstream = upstream) {
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Memo", type: "mcp", config: { url: to.url, toolApproval: false } });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Live", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  return { t, url: `${app.origin}/mcp/${server.body.id}`, connectorId: connector.body.id as string };
}

describe("a v1 (2025-era) upstream through the gateway", () => {
  it("prompts, resources, templates and completions of a v1 upstream, to a v2 (2026-07-28) client", async () => {
    const { t, url } = await scenario();
    const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${t.member.token}` } } }));
    try {
      expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages[0].content).toEqual({ type: "text", text: "greet Ada" });
      expect((await client.readResource({ uri: "memo://note" })).contents[0]).toMatchObject({ text: "the note" });
      expect((await client.readResource({ uri: "memo://items/7" })).contents[0]).toMatchObject({ text: "item 7" });
      const byTemplate = await client.complete({ ref: { type: "ref/resource", uri: "memo://items/{id}" }, argument: { name: "id", value: "4" } });
      expect(byTemplate.completion.values).toEqual(["4-done"]);
      const byPrompt = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } });
      expect(byPrompt.completion.values).toEqual(["A-done"]);
      expect(upstream.completions.slice(-2)).toEqual([{ type: "ref/resource", uri: "memo://items/{id}" }, { type: "ref/prompt", name: "greet" }]);
    } finally {
      await client.close();
    }
  });

  it("a stateful session's subscription is forwarded and the upstream's resources/updated relayed to it", async () => {
    const { t, url } = await scenario();
    const client = await connectV1(url, t.member.token);
    const updates: string[] = [];
    client.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    try {
      await client.client.subscribeResource({ uri: "memo://note" });
      expect(upstream.subscribed).toContain("memo://note");
      await upstream.updated("memo://note");
      await vi.waitFor(() => expect(updates).toEqual(["memo://note"]), { timeout: 15_000 });
      await client.client.unsubscribeResource({ uri: "memo://note" });
      expect(upstream.subscribed).not.toContain("memo://note");
    } finally {
      await client.close();
    }
  });

  it("2026-07-28 listen streams with resourceSubscriptions: one upstream subscription for both, its resources/updated on each, released with the last stream", async () => {
    const { t, url } = await scenario();
    const listener = async () => {
      const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      const updates: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
      await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${t.member.token}` } } }));
      const subscription = await client.listen({ resourceSubscriptions: ["memo://note"] });
      return { client, updates, subscription };
    };
    const a = await listener();
    const b = await listener();
    try {
      expect(a.subscription.honoredFilter.resourceSubscriptions).toEqual(["memo://note"]);
      await vi.waitFor(() => expect(upstream.subscribed.filter((u) => u === "memo://note")).toHaveLength(1), { timeout: 5000 });
      await upstream.updated("memo://note");
      await vi.waitFor(() => expect([a.updates, b.updates]).toEqual([["memo://note"], ["memo://note"]]), { timeout: 5000 });
      await a.subscription.close();
      await new Promise((r) => setTimeout(r, 200));
      expect(upstream.subscribed).toContain("memo://note"); // b still listens
      await b.subscription.close();
      await vi.waitFor(() => expect(upstream.subscribed).not.toContain("memo://note"), { timeout: 5000 });
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it("a listen stream whose upstream subscribe was refused closes after a newer stream's succeeded: the newer stream keeps its subscription and updates", async () => {
    const { t, url } = await scenario();
    const listener = async () => {
      const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      const updates: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
      await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${t.member.token}` } } }));
      return { client, updates, subscription: await client.listen({ resourceSubscriptions: ["memo://note"] }) };
    };
    upstream.refuseSubscribes = 1;
    const a = await listener();
    await vi.waitFor(() => expect(upstream.refuseSubscribes).toBe(0), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 200)); // the refusal reaches the gateway
    const b = await listener();
    try {
      await vi.waitFor(() => expect(upstream.subscribed.filter((u) => u === "memo://note")).toHaveLength(1), { timeout: 5000 });
      await a.subscription.close();
      await new Promise((r) => setTimeout(r, 300));
      expect(upstream.subscribed).toContain("memo://note"); // no unsubscribe was sent for b's
      await upstream.updated("memo://note");
      await vi.waitFor(() => expect(b.updates).toEqual(["memo://note"]), { timeout: 5000 });
      await b.subscription.close();
      await vi.waitFor(() => expect(upstream.subscribed).not.toContain("memo://note"), { timeout: 5000 });
    } finally {
      upstream.refuseSubscribes = 0;
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it("the upstream's list_changed re-discovers the connector and reaches live sessions and 2026-07-28 listeners", async () => {
    const { t, url } = await scenario();
    const v1 = await connectV1(url, t.member.token);
    const told: string[] = [];
    v1.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void told.push("tools"));
    v1.client.setNotificationHandler(PromptListChangedNotificationSchema, () => void told.push("prompts"));
    // A stateful session keeps the resources it had at initialize (seed 004, "Stateful sessions"): not told.
    v1.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void told.push("resources"));
    const v2 = new V2Client(
      { name: "t", version: "1" },
      {
        capabilities: {},
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: {
          prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => void told.push("v2 prompts") },
          resources: { autoRefresh: false, debounceMs: 0, onChanged: () => void told.push("v2 resources") },
        },
      },
    );
    await v2.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${t.member.token}` } } }));
    try {
      // A 2026-07-28 client is told when the resources change (a session only of its tools' apps).
      expect(v2.getServerCapabilities()?.resources?.listChanged).toBe(true);
      // A request through the gateway opens the member's pooled connection to the upstream.
      await v1.client.getPrompt({ name: "greet", arguments: { who: "x" } });
      upstream.prompts.push("farewell");
      upstream.tools.push("archive");
      upstream.resources.push({ uri: "memo://draft", text: "the draft" });
      await upstream.changed("prompts");
      await upstream.changed("resources");
      await vi.waitFor(() => expect(told).toEqual(expect.arrayContaining(["tools", "prompts", "v2 prompts", "v2 resources"])), { timeout: 8000 });
      expect(told).not.toContain("resources");
      expect((await v1.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet", "farewell"]);
      expect((await v1.client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup", "archive"]);
      expect((await v2.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet", "farewell"]);
      expect((await v2.listResources()).resources.map((r) => r.name)).toEqual(expect.arrayContaining(["memo://note", "memo://draft"]));
    } finally {
      upstream.prompts.splice(1);
      upstream.tools.splice(1);
      upstream.resources.splice(1);
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  it("the upstream's initialize instructions are the connector's when its admin wrote none; the admin's own replace them", async () => {
    const { t, url, connectorId } = await scenario();
    const read = async () => {
      const client = await connectV2(url, t.member.token);
      try {
        const connectorResource = await client.readResource({ uri: `anythingmcp://server/${url.split("/").pop()}/connector/${connectorId}/instructions` }).catch(() => null);
        return { initialize: client.getInstructions(), resource: (connectorResource?.contents[0] as { text?: string } | undefined)?.text };
      } finally {
        await client.close();
      }
    };
    expect(await read()).toEqual({ initialize: `## Memo\n\n${UPSTREAM_INSTRUCTIONS}`, resource: UPSTREAM_INSTRUCTIONS });
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { instructions: "Our own words." });
    expect(patched.status, patched.text).toBe(200);
    expect(await read()).toEqual({ initialize: "## Memo\n\nOur own words.", resource: "Our own words." });
  });

  it("a resource link an upstream tool returned, listed nowhere, is readable by its caller through the gateway, and by no one else", async () => {
    upstream.tools.push("attach");
    try {
      const { t, url } = await scenario();
      const [mine, theirs] = await Promise.all([connectV2(url, t.member.token), connectV2(url, t.admin.token)]);
      try {
        const before = await mine.readResource({ uri: "memo://attached/1" }).catch((e: { code?: number }) => e);
        expect(before).toMatchObject({ code: -32602 }); // not linked yet: not found
        const called = await mine.callTool({ name: "attach", arguments: {} });
        expect(called.content).toEqual([{ type: "resource_link", uri: "memo://attached/1", name: "attachment", mimeType: "text/plain" }]);
        const read = await mine.readResource({ uri: "memo://attached/1" });
        expect(read.contents).toEqual([{ uri: "memo://attached/1", mimeType: "text/plain", text: "made by this session's call" }]);
        // Another user of the same server never got the link: the same answer as a URI that never existed.
        const other = await theirs.readResource({ uri: "memo://attached/1" }).catch((e: { code?: number }) => e);
        expect(other).toMatchObject({ code: -32602 });
        const audited = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/audit?action=resource.read`);
        expect(audited.body.items.map((e: { data: { uri: string; outcome: string } }) => [e.data.uri, e.data.outcome])).toEqual([["memo://attached/1", "ok"]]);
      } finally {
        await Promise.all([mine.close(), theirs.close()]);
      }
    } finally {
      upstream.tools.splice(upstream.tools.indexOf("attach"), 1);
    }
  });

  it("an upstream announcing list_changed 10 times in a second, nothing changed: at most 2 re-discoveries, no version bump, no audit row", async () => {
    const own = await startV1ListUpstream(); // its own: list_changed reaches this connector only
    const { t, url } = await scenario(own);
    const v1 = await connectV1(url, t.member.token);
    try {
      await v1.client.getPrompt({ name: "greet", arguments: { who: "x" } }); // opens the pooled upstream connection
      const version = async () => (await db().organization.findFirstOrThrow({ where: { id: t.org.id }, select: { configVersion: true } })).configVersion;
      const reloads = () => db().auditEvent.count({ where: { orgId: t.org.id, action: "connector.reload" } });
      const [before, versionBefore, reloadsBefore] = [own.toolLists, await version(), await reloads()];
      for (let i = 0; i < 10; i++) {
        await own.changed("tools");
        await new Promise((r) => setTimeout(r, 50));
      }
      // One now, and the coalesced last request once the interval (1 s) is over.
      await vi.waitFor(() => expect(own.toolLists - before).toBe(2), { timeout: 10_000, interval: 100 });
      await new Promise((r) => setTimeout(r, 500));
      expect(own.toolLists - before).toBe(2);
      expect(await version()).toBe(versionBefore);
      expect(await reloads()).toBe(reloadsBefore);
    } finally {
      await v1.close();
      await own.close();
    }
  }, 20_000);

  it("two sessions of one member subscribing to one URI at once: one upstream subscription, both hear its update", async () => {
    const own = await startV1ListUpstream();
    const { t, url } = await scenario(own);
    const [a, b] = await Promise.all([connectV1(url, t.member.token), connectV1(url, t.member.token)]);
    const heard: string[] = [];
    a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void heard.push("a"));
    b.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void heard.push("b"));
    try {
      await a.client.getPrompt({ name: "greet", arguments: { who: "x" } }); // one pooled upstream connection for both
      await Promise.all([a.client.subscribeResource({ uri: "memo://note" }), b.client.subscribeResource({ uri: "memo://note" })]);
      expect(own.subscribed).toEqual(["memo://note"]);
      await own.updated("memo://note");
      await vi.waitFor(() => expect(heard.sort()).toEqual(["a", "b"]), { timeout: 5000 });
    } finally {
      await Promise.all([a.close(), b.close()]);
      await own.close();
    }
  });

  it(`a session holds at most ${MAX_SUBSCRIPTIONS} resource subscriptions: the next one is refused`, async () => {
    const { t, url } = await scenario();
    const client = await connectV1(url, t.member.token);
    try {
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await client.client.subscribeResource({ uri: `memo://items/cap-${i}` });
      const refused = await client.client.subscribeResource({ uri: "memo://items/one-too-many" }).then(() => null, (e: { code?: number }) => e);
      expect(refused?.code).toBe(-32600);
      await client.client.subscribeResource({ uri: "memo://items/cap-0" }); // one it holds: still fine
    } finally {
      await client.close();
    }
  }, 30_000);

  it(`one credential's listen streams hold at most ${MAX_SUBSCRIPTIONS} upstream resource subscriptions between them: a further stream's new URI is not subscribed upstream`, async () => {
    const { t, url } = await scenario();
    const listener = async (uris: string[]) => {
      const client = new V2Client({ name: "t", version: "1" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${t.member.token}` } } }));
      return { client, subscription: await client.listen({ resourceSubscriptions: uris }) };
    };
    const capped = (u: string) => u.startsWith("memo://items/listen-cap-");
    const a = await listener(Array.from({ length: MAX_SUBSCRIPTIONS }, (_, i) => `memo://items/listen-cap-${i}`));
    const b = await listener(["memo://items/listen-cap-0", "memo://items/listen-one-too-many"]);
    try {
      await vi.waitFor(() => expect(upstream.subscribed.filter(capped)).toHaveLength(MAX_SUBSCRIPTIONS), { timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 300));
      expect(upstream.subscribed).not.toContain("memo://items/listen-one-too-many");
      expect(upstream.subscribed.filter(capped)).toHaveLength(MAX_SUBSCRIPTIONS); // cap-0 once, for both streams
      await a.subscription.close();
      // b's cap-0 is still held; the rest went with a.
      await vi.waitFor(() => expect(upstream.subscribed.filter(capped)).toEqual(["memo://items/listen-cap-0"]), { timeout: 10_000 });
      await b.subscription.close();
      await vi.waitFor(() => expect(upstream.subscribed.filter(capped)).toEqual([]), { timeout: 5000 });
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it("a pooled upstream connection holding a subscription outlives the idle timeout: the update still arrives", async () => {
    const own = await startV1ListUpstream();
    const { t, url } = await scenario(own);
    const client = await connectV1(url, t.member.token);
    const updates: string[] = [];
    client.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    try {
      await client.client.subscribeResource({ uri: "memo://note" });
      await new Promise((r) => setTimeout(r, 2_500)); // past the idle timeout (1 s), no request meanwhile
      await own.updated("memo://note");
      await vi.waitFor(() => expect(updates).toEqual(["memo://note"]), { timeout: 5000 });
    } finally {
      await client.close();
      await own.close();
    }
  });
});
