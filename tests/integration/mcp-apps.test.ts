import { ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v1Client, v2Client } from "@/tests/helpers/flight-scenario";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { sweepNow } from "@/lib/mcp/serve/connection-state/live-watch";
import { APP_MIME, APP_URI, startRichUpstream, UNLISTED_APP_URI, type RichUpstream } from "@/tests/fixtures/rich-upstream/rich-upstream";

/**
 * Issue 25 point 2: a tool's MCP App (`_meta.ui.resourceUri` → a `ui://` resource) reaches
 * exactly the callers who see its connector; the shared /mcp, which publishes no resources,
 * leaves `_meta.ui` out; two connectors with one `ui://` URI fall under the duplicate rule;
 * and a stateful session hears of a new tool's app by resources/list_changed.
 */

let app: RouteServer;
let rich: RichUpstream;

beforeAll(async () => {
  [app, rich] = await Promise.all([startRouteServer(), startRichUpstream()]);
}, 60_000);
afterEach(() => void vi.unstubAllEnvs());
afterAll(async () => {
  await upstreamPool().closeAll();
  await Promise.all([app?.close(), rich?.close()]);
});

async function connector(t: Tenant, name: string, url = rich.url): Promise<string> {
  // Approval off: a tool added upstream is served at once (tests/integration/tool-approval.test.ts covers the wait).
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name, type: "mcp", config: { url, toolApproval: false } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function server(t: Tenant, connectorIds: string[]): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Apps", connectorIds });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** The JSON-RPC error code a read answers, or "read" when it succeeds. */
async function readCode(client: Awaited<ReturnType<typeof v2Client>> | Awaited<ReturnType<typeof v1Client>>, uri: string): Promise<number | string> {
  try {
    await (client as Awaited<ReturnType<typeof v2Client>>).readResource({ uri });
    return "read";
  } catch (e) {
    return (e as { code: number }).code;
  }
}

describe("MCP Apps through /mcp/<serverId>", () => {
  it("a tool's app is read by exactly the callers who see its connector; an unlisted app by those who see its tool", async () => {
    const t = await createTenant({ toolWhitelistsEnabled: true });
    const richId = await connector(t, "Rich");
    const url = `${app.origin}/mcp/${await server(t, [richId])}`;
    // A member without a role sees none of the connector's tools: its app is not found, in both eras.
    const [v1, v2] = [await v1Client(url, t.member.token), await v2Client(url, t.member.token)];
    expect([await readCode(v1, APP_URI), await readCode(v1, UNLISTED_APP_URI)]).toEqual([-32002, -32002]);
    expect([await readCode(v2, APP_URI), await readCode(v2, UNLISTED_APP_URI)]).toEqual([-32602, -32602]);
    await Promise.all([v1.close(), v2.close()]);
    // Granted `fails` only: the connector is theirs, so its listed app is; `every_content`'s unlisted one is not.
    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Some", tools: [{ connectorId: richId, tool: "fails" }] });
    expect(role.status, role.text).toBe(201);
    await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
    const member = await v2Client(url, t.member.token);
    const read = await member.readResource({ uri: APP_URI });
    expect(read.contents[0]).toMatchObject({ uri: APP_URI, mimeType: APP_MIME, _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, permissions: { clipboardWrite: {} }, domain: "weather.example.com", prefersBorder: true } } });
    expect(await readCode(member, UNLISTED_APP_URI)).toBe(-32602);
    await member.close();
    // The admin sees every tool, so the unlisted app too; another organization's key is refused the server.
    const admin = await v2Client(url, t.admin.token);
    expect(await readCode(admin, UNLISTED_APP_URI)).toBe("read");
    await admin.close();
    const other = await createTenant();
    await expect(v2Client(url, other.admin.token)).rejects.toThrow();
  }, 90_000);

  it("the shared /mcp, which publishes no resources, leaves a tool's _meta.ui out and keeps the rest of its _meta", async () => {
    const t = await createTenant();
    await server(t, [await connector(t, "Rich")]);
    for (const client of [await v1Client(`${app.origin}/mcp`, t.member.token), await v2Client(`${app.origin}/mcp`, t.member.token)]) {
      const tools = (await (client as Awaited<ReturnType<typeof v2Client>>).listTools()).tools;
      const weather = tools.find((x) => x.name === "show_weather")!;
      expect(weather._meta).toEqual({ "com.example/owner": { team: "weather" } });
      expect(weather.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((x) => x.name === "every_content")!._meta).toBeUndefined();
      await client.close();
    }
  });

  it("a tool only its app may call (ui.visibility [\"app\"]) is listed on /mcp/<serverId> for the host to keep from the model, and neither listed nor callable on the shared /mcp, which has no apps", async () => {
    const own = await startRichUpstream();
    own.addTool("refresh_view", ["app"]);
    try {
      const t = await createTenant();
      const serverId = await server(t, [await connector(t, "Rich", own.url)]);
      const served = await v2Client(`${app.origin}/mcp/${serverId}`, t.member.token);
      expect((await served.listTools()).tools.find((x) => x.name === "refresh_view")?._meta?.ui).toEqual({ resourceUri: "ui://extra/refresh_view.html", visibility: ["app"] });
      expect((await served.callTool({ name: "refresh_view", arguments: {} })).content).toEqual([{ type: "text", text: "ran refresh_view" }]);
      await served.close();
      for (const client of [await v1Client(`${app.origin}/mcp`, t.member.token), await v2Client(`${app.origin}/mcp`, t.member.token)]) {
        const c = client as Awaited<ReturnType<typeof v2Client>>;
        const names = (await c.listTools()).tools.map((x) => x.name);
        expect(names).toContain("show_weather");
        expect(names).not.toContain("refresh_view");
        const called = await c.callTool({ name: "refresh_view", arguments: {} }).catch((e: { code?: number }) => e);
        expect(called).toMatchObject({ code: -32602 });
        await client.close();
      }
    } finally {
      await own.close();
    }
  });

  it("two connectors publishing one ui:// URI: the duplicate rule withholds it from both, their tools keep _meta.ui", async () => {
    const t = await createTenant();
    const url = `${app.origin}/mcp/${await server(t, [await connector(t, "Rich one"), await connector(t, "Rich two")])}`;
    const client = await v2Client(url, t.member.token);
    const tools = (await client.listTools()).tools;
    expect(tools.map((x) => x.name)).toEqual(expect.arrayContaining(["rich_one_show_weather", "rich_two_show_weather"]));
    expect(tools.find((x) => x.name === "rich_one_show_weather")!._meta?.ui).toEqual({ resourceUri: APP_URI, visibility: ["model", "app"] });
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain(APP_URI);
    expect([await readCode(client, APP_URI), await readCode(client, UNLISTED_APP_URI)]).toEqual([-32602, -32602]);
    await client.close();
  });
});

describe("a stateful session and a new tool's app", () => {
  it("hears resources/list_changed and tools/list_changed after a reload adds a tool with an app, then reads the app", async () => {
// Only a stateful session is told of list changes; the default stateless serving re-reads lists per request.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const t = await createTenant();
    const richId = await connector(t, "Rich");
    const url = `${app.origin}/mcp/${await server(t, [richId])}`;
    const client = await v1Client(url, t.member.token);
    const heard: string[] = [];
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard.push("resources"));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push("tools"));
    // The GET stream carries the notifications: open it by one request first.
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain("ui://extra/radar.html");
    rich.addTool("radar");
    const reload = await api(t.admin.token).post(`/api/v1/connectors/${richId}/reload`);
    expect(reload.status, reload.text).toBe(200);
    await sweepNow();
    for (const end = Date.now() + 5000; heard.length < 2 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
    expect(heard).toEqual(["resources", "tools"]);
    const radar = (await client.listTools()).tools.find((x) => x.name === "radar");
    expect(radar?._meta).toEqual({ ui: { resourceUri: "ui://extra/radar.html" } });
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain("ui://extra/radar.html");
    expect((await client.readResource({ uri: "ui://extra/radar.html" })).contents[0]).toMatchObject({ mimeType: APP_MIME });
    await client.close();
  });
});
