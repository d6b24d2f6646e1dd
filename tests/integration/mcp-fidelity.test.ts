import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v1Client, v2Client, v2LegacyClient } from "@/tests/helpers/flight-scenario";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { db } from "@/lib/db/client";
import { APP_MIME, APP_URI, startRichUpstream, UNLISTED_APP_URI, type RichUpstream } from "@/tests/fixtures/rich-upstream/rich-upstream";

/**
 * Issue 25 points 1, 2 and 4: through /mcp/<serverId> the v1 and the v2 SDK client get, field
 * for field, what they get from the upstream directly — tools, resources, templates, prompts,
 * an MCP App's `ui://` resource and every kind of result — on both eras, stateless and in
 * stateful sessions. The one difference allowed here: the gateway skips the upstream's
 * resource in the platform's reserved `anythingmcp:` scheme.
 */

let app: RouteServer;
let rich: RichUpstream;
let t: Tenant;
/** /mcp/<serverId> of a server whose connector reaches the upstream in each era the product offers. */
const urls: Record<Link, string> = { auto: "", "2025-11-25": "" };
type Link = "auto" | "2025-11-25";

beforeAll(async () => {
  [app, rich] = await Promise.all([startRouteServer(), startRichUpstream()]);
  t = await createTenant();
  for (const link of Object.keys(urls) as Link[]) urls[link] = await richServer(t, link);
}, 120_000);

/** A server of tenant `t` with one connector to the fixture, reached in era `link`; its /mcp URL. */
async function richServer(tenant: Tenant, link: Link, name = `Rich ${link}`): Promise<string> {
  const connector = await api(tenant.admin.token).post(`/api/v1/orgs/${tenant.org.id}/connectors`, { name, type: "mcp", config: { url: rich.url, protocolEra: link } });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name, connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  return `${app.origin}/mcp/${server.body.id}`;
}
afterEach(() => void vi.unstubAllEnvs());
afterAll(async () => {
  await upstreamPool().closeAll();
  await Promise.all([app?.close(), rich?.close()]);
});

type AnyClient = Awaited<ReturnType<typeof v2Client>> | Awaited<ReturnType<typeof v1Client>>;
const CLIENTS = {
  "v1 SDK, 2025-11-25": (u: string, token: string) => v1Client(u, token),
  "v2 SDK, 2025-11-25": (u: string, token: string) => v2LegacyClient(u, token),
  "v2 SDK, 2026-07-28": (u: string, token: string) => v2Client(u, token),
};

const notReserved = (r: { uri: string }) => !r.uri.startsWith("anythingmcp:");

/** Everything a client sees of the fixture, as one object. */
async function observe(c: AnyClient) {
  const client = c as Awaited<ReturnType<typeof v2Client>>;
  return {
    tools: (await client.listTools()).tools,
    resources: (await client.listResources()).resources.filter(notReserved),
    templates: (await client.listResourceTemplates()).resourceTemplates,
    prompts: (await client.listPrompts()).prompts,
    prompt: await client.getPrompt({ name: "summarize", arguments: { text: "hi" } }),
    app: await client.readResource({ uri: APP_URI }),
    unlistedApp: await client.readResource({ uri: UNLISTED_APP_URI }),
    weather: await client.callTool({ name: "show_weather", arguments: { city: "Oslo" } }),
    every: await client.callTool({ name: "every_content", arguments: {} }),
    fails: await client.callTool({ name: "fails", arguments: {} }),
  };
}

/**
 * What the upstream sends a client directly, as the gateway can have it: over a 2026-07-28 link
 * (`auto` with this upstream) a tool has no `execution` — 2026-07-28 deleted the field, and the
 * SDK strips it on that wire — so a 2025-era client gets it only through a 2025-era link.
 */
function reachable(upstream: Awaited<ReturnType<typeof observe>>, link: Link) {
  if (link === "2025-11-25") return upstream;
  return { ...upstream, tools: upstream.tools.map(({ execution: _execution, ...tool }) => tool) };
}

/**
 * Results on 2026-07-28 name the server that answered in `_meta["io.modelcontextprotocol/serverInfo"]`:
 * the upstream directly, the gateway's server through it. Like a tool's name, it differs by nature.
 */
function anonymous<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === "io.modelcontextprotocol/serverInfo" ? "(the server answering)" : v)) as T;
}

describe.each(Object.entries(CLIENTS))("the %s client", (_label, connect) => {
  it.each([
    ["stateless", "false", "auto"],
    ["stateful", "true", "auto"],
    ["stateless", "false", "2025-11-25"],
    ["stateful", "true", "2025-11-25"],
  ] as const)("gets field for field what the upstream gives it (%s serving, MCP_STATEFUL_SESSIONS=%s, upstream link %s)", async (_mode, stateful, link) => {
// Fields must survive both serving modes, the default stateless one and stateful sessions.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const [direct, gateway] = await Promise.all([connect(rich.url, "unused"), connect(urls[link], t.member.token)]);
    try {
      const [upstream, through] = [anonymous(await observe(direct)), anonymous(await observe(gateway))];
      expect(through).toEqual(reachable(upstream, link));
      // What a client shows and decides by, spelled out (toEqual above covers every field).
      const weather = through.tools.find((x) => x.name === "show_weather")!;
      expect(weather.annotations).toEqual({ title: "Weather", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(weather._meta?.ui).toEqual({ resourceUri: APP_URI, visibility: ["model", "app"] });
      // toEqual ignores key order; a client's form and a model read parameters (and a host its
      // annotations, icons and _meta) in the order written: each listing's text is the upstream's.
      const written = (seen: typeof through) => [...seen.tools, ...seen.resources, ...seen.templates, ...seen.prompts].map((x) => JSON.stringify(x));
      expect(written(through)).toEqual(written(reachable(upstream, link)));
      expect(Object.keys(weather.inputSchema.properties ?? {})).toEqual(["units", "city"]);
      expect(through.app.contents[0]).toMatchObject({ uri: APP_URI, mimeType: APP_MIME, _meta: { ui: { domain: "weather.example.com", prefersBorder: true } } });
      expect(through.every._meta).toMatchObject({ "com.example/trace": "t-123" });
      expect(through.fails.isError).toBe(true);
      expect(through.prompts[0].arguments).toEqual([
        { name: "text", description: "What to summarize", required: true },
        { name: "style", description: "How", required: false },
        { name: "lang" },
      ]);
      // The upstream's resource in the reserved scheme is skipped; the upstream does list it.
      const all = await (gateway as Awaited<ReturnType<typeof v2Client>>).listResources();
      expect(all.resources.some((r) => r.name === "impostor")).toBe(false);
    } finally {
      await Promise.all([direct.close(), gateway.close()]);
    }
  });
});

describe("tool schemas stored before they kept their order", () => {
  it("a Reload rewrites a schema stored in jsonb's sorted order, and the client sees the upstream's order again", async () => {
    const tenant = await createTenant();
    const connector = await api(tenant.admin.token).post(`/api/v1/orgs/${tenant.org.id}/connectors`, { name: "Rich sorted", type: "mcp", config: { url: rich.url, protocolEra: "2025-11-25" } });
    expect(connector.status, connector.text).toBe(201);
    const server = await api(tenant.admin.token).post(`/api/v1/workspaces/${tenant.workspace.id}/servers`, { name: "Rich sorted", connectorIds: [connector.body.id] });
    expect(server.status, server.text).toBe(201);
    // As the jsonb column kept it: keys sorted, shorter first.
    await db().$executeRaw`UPDATE tools SET input_schema = (input_schema::jsonb)::json WHERE connector_id = ${connector.body.id}`;
    const order = async () => {
      const client = await v2LegacyClient(`${app.origin}/mcp/${server.body.id}`, tenant.member.token);
      try {
        const weather = (await client.listTools()).tools.find((x) => x.name === "show_weather")!;
        return Object.keys(weather.inputSchema.properties ?? {});
      } finally {
        await client.close();
      }
    };
    expect(await order()).toEqual(["city", "units"]);
    const reload = await api(tenant.admin.token).post(`/api/v1/connectors/${connector.body.id}/reload`, {});
    expect(reload.status, reload.text).toBe(200);
    expect(await order()).toEqual(["units", "city"]);
  });
});
