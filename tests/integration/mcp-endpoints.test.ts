import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { connectV1, connectV2, postRaw, rpcError, type WireLog } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1Upstream, type RecordedUpstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 3 acceptance over real HTTP: the route handlers behind node:http, a v1 SDK client
 * (2025-11-25, initialize) and a v2 client (2026-07-28) against the same /mcp/<serverId>,
 * with an http connector calling a real HTTP API and an mcp connector forwarding to a real
 * upstream MCP server, both started here.
 */

let app: RouteServer;
let httpApi: HttpApiStub;
let upstream: RecordedUpstream;

beforeAll(async () => {
  [app, httpApi, upstream] = await Promise.all([startRouteServer(), startHttpApi(), startV1Upstream()]);
  httpApi.route("GET", "/customers/42", (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "42", name: "Ada" }));
  });
});
afterAll(async () => {
  await Promise.all([app.close(), httpApi.close(), upstream.stop()]);
});

const mcpUrl = (serverId: string) => `${app.origin}/mcp/${serverId}`;

async function httpConnector(t: Tenant, name = "CRM", instructions: string | null = "CRM setup notes.") {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    instructions,
    config: { baseUrl: httpApi.origin },
    tools: [
      {
        name: "get_customer",
        description: "Fetch one customer",
        inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        request: { method: "GET", path: "/customers/{id}" },
      },
    ],
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function mcpConnector(t: Tenant) {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.url } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function server(t: Tenant, connectorIds: string[], instructions: string | null = "Server notes.", name = "Support") {
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name, instructions, connectorIds });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content)[0].text;

describe("MCP endpoints: both protocol eras on the same /mcp/<serverId>", () => {
  it("a v1 SDK client (2025-11-25) and a v2 client (2026-07-28) both list and call tools; the http tool reaches a real HTTP API, the mcp tool a real upstream MCP server", async () => {
    const t = await createTenant();
    const serverId = await server(t, [await httpConnector(t), await mcpConnector(t)]);
    const v1 = await connectV1(mcpUrl(serverId), t.admin.token);
    const v2 = await connectV2(mcpUrl(serverId), t.admin.token);
    try {
      expect(v1.transport.protocolVersion).toBe("2025-11-25");
      expect(v2.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      for (const client of [v1.client, v2.client]) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(["get_customer", "echo", "host_call", "fails"]);
        expect(tools[0]).toMatchObject({ description: "Fetch one customer", inputSchema: { type: "object", required: ["id"] } });

        const before = httpApi.seen.length;
        const customer = await client.callTool({ name: "get_customer", arguments: { id: "42" } });
        expect(customer.isError).toBeFalsy();
        expect(text(customer)).toContain("Ada");
        expect(httpApi.seen.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(["GET /customers/42"]);

        const echoed = await client.callTool({ name: "echo", arguments: { text: "via upstream" } });
        expect(echoed.isError).toBeFalsy();
        expect(JSON.parse(text(echoed)).args).toEqual({ text: "via upstream" });
      }
      expect(upstream.messages.filter((m) => m.method === "tools/call").map((m) => m.params.arguments)).toEqual([
        { text: "via upstream" },
        { text: "via upstream" },
      ]);
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  it("2025-era clients of every supported revision (2025-11-25, 2025-06-18, 2025-03-26) initialize and list tools", async () => {
    const t = await createTenant();
    const serverId = await server(t, [await httpConnector(t)]);
    const auth = { authorization: `Bearer ${t.admin.token}` };
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const init = await postRaw(mcpUrl(serverId), { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } } }, auth);
      expect(init.status).toBe(200);
      expect(init.body.result).toMatchObject({ protocolVersion: version, serverInfo: { name: "Support" }, instructions: "Server notes.\n\n## CRM\n\nCRM setup notes." });
      const list = await postRaw(mcpUrl(serverId), { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, { ...auth, "mcp-protocol-version": version });
      expect(list.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["get_customer"]);
    }
  });

  it("tools/call of a tool the caller may not use, or that does not exist, is the same JSON-RPC error (-32602 Unknown tool) in both eras", async () => {
    const t = await createTenant();
    const crm = await httpConnector(t);
    const billing = await httpConnector(t, "Billing", null);
    const serverId = await server(t, [crm, billing]);
    // The member's role allows Billing's tool only; CRM's get_customer is hidden from it.
    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Billing only", tools: [{ connectorId: billing, tool: "get_customer" }] });
    await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
    const admin = await connectV1(mcpUrl(serverId), t.admin.token);
    const crmName = (await admin.client.listTools()).tools[0].name;
    await admin.close();
    const v1 = await connectV1(mcpUrl(serverId), t.member.token);
    const v2 = await connectV2(mcpUrl(serverId), t.member.token);
    try {
      for (const client of [v1.client, v2.client]) {
        const { tools } = await client.listTools();
        // Two connectors share the name: each is prefixed with its connector's slug.
        expect(tools.map((tool) => tool.name)).toEqual([expect.stringMatching(/^billing.*_get_customer$/)]);
        const hidden = await rpcError(client.callTool({ name: "get_customer", arguments: { id: "1" } }));
        const hiddenPrefixed = await rpcError(client.callTool({ name: crmName, arguments: { id: "1" } }));
        const missing = await rpcError(client.callTool({ name: "no_such_tool", arguments: {} }));
        for (const err of [hidden, hiddenPrefixed, missing]) {
          expect(err.code).toBe(-32602);
          expect(err.message).toContain("Unknown tool");
        }
      }
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });
});

async function skill(t: Tenant, name: string, content: string, connectorId: string | null = null, applied = true) {
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name, content, connectorId, applied });
  expect(res.status, res.text).toBe(201);
}

/** CRM (hidden from the member) and Billing (allowed), skills of both kinds, and stored resources. */
async function crmAndBilling() {
  const t = await createTenant();
  const crm = await httpConnector(t, "CRM", "CRM setup notes.");
  const billing = await httpConnector(t, "Billing", "Billing notes.");
  await skill(t, "CRM skill", "Search the CRM by email.", crm);
  await skill(t, "General", "Answer briefly.");
  await skill(t, "Draft", "Not applied yet.", null, false);
  const res = await api(t.admin.token).post(`/api/v1/connectors/${crm}/resources`, { uri: "crm://schema", name: "CRM schema", fetchConfig: { text: "# CRM schema" } });
  expect(res.status, res.text).toBe(201);
  const serverId = await server(t, [crm, billing]);
  const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Billing only", tools: [{ connectorId: billing, tool: "get_customer" }] });
  await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
  return { t, crm, billing, serverId };
}

describe("initialize instructions", () => {
  it("compose the server's instructions, then each usable connector's, then the applied skills; connector-scoped skills only for usable connectors — in both eras", async () => {
    const { t, serverId } = await crmAndBilling();
    const expected = {
      [t.admin.token]: [
        "Server notes.",
        "## CRM\n\nCRM setup notes.",
        "## Billing\n\nBilling notes.",
        "## Skill: CRM skill\n\nSearch the CRM by email.",
        "## Skill: General\n\nAnswer briefly.",
      ].join("\n\n"),
      [t.member.token]: ["Server notes.", "## Billing\n\nBilling notes.", "## Skill: General\n\nAnswer briefly."].join("\n\n"),
    };
    for (const [token, instructions] of Object.entries(expected)) {
      const v1 = await connectV1(mcpUrl(serverId), token);
      const v2 = await connectV2(mcpUrl(serverId), token);
      try {
        expect(v1.client.getInstructions()).toBe(instructions);
        expect(v2.client.getInstructions()).toBe(instructions);
        // Seed 004: the instructions resource is byte-for-byte the initialize instructions.
        for (const client of [v1.client, v2.client]) {
          const read = await client.readResource({ uri: `anythingmcp://server/${serverId}/instructions` });
          expect(read.contents).toEqual([{ uri: `anythingmcp://server/${serverId}/instructions`, mimeType: "text/markdown", text: instructions }]);
        }
      } finally {
        await Promise.all([v1.close(), v2.close()]);
      }
    }
  });
});

describe("resources on /mcp/<serverId>", () => {
  it("declares the resources capability (listChanged only where it can be told: a 2026-07-28 listen stream) and lists only what the caller's connectors publish", async () => {
    const { t, serverId, crm, billing } = await crmAndBilling();
    const admin = await connectV1(mcpUrl(serverId), t.admin.token);
    const member = await connectV2(mcpUrl(serverId), t.member.token);
    try {
      expect(admin.client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
      expect(member.client.getServerCapabilities()?.resources).toMatchObject({ listChanged: true });
      const adminUris = (await admin.client.listResources()).resources.map((r) => r.uri);
      expect(adminUris).toEqual([
        `anythingmcp://server/${serverId}/instructions`,
        `anythingmcp://server/${serverId}/connector/${crm}/instructions`,
        `anythingmcp://server/${serverId}/connector/${billing}/instructions`,
        "crm://schema",
      ]);
      const memberUris = (await member.client.listResources()).resources.map((r) => r.uri);
      expect(memberUris).toEqual([`anythingmcp://server/${serverId}/instructions`, `anythingmcp://server/${serverId}/connector/${billing}/instructions`]);
    } finally {
      await Promise.all([admin.close(), member.close()]);
    }
  });

  it("resources/read of a hidden or unknown URI: -32002 { uri } on a 2025-era connection, -32602 { uri } on 2026-07-28 — the same answer for both", async () => {
    const { t, serverId, crm } = await crmAndBilling();
    const wire1: WireLog = { messages: [] };
    const wire2: WireLog = { messages: [] };
    const v1 = await connectV1(mcpUrl(serverId), t.member.token, {}, wire1);
    const v2 = await connectV2(mcpUrl(serverId), t.member.token, {}, wire2);
    const uris = ["crm://schema", `anythingmcp://server/${serverId}/connector/${crm}/instructions`, "crm://never-existed"];
    try {
      for (const uri of uris) {
        await expect(v1.client.readResource({ uri })).rejects.toThrow();
        await expect(v2.client.readResource({ uri })).rejects.toThrow();
      }
      const errors = async (wire: WireLog) => {
        await vi.waitFor(() => expect(wire.messages.filter((m) => m.error)).toHaveLength(uris.length));
        return wire.messages.filter((m) => m.error).map((m) => m.error);
      };
      expect(await errors(wire1)).toEqual(uris.map((uri) => ({ code: -32002, message: expect.any(String), data: { uri } })));
      expect(await errors(wire2)).toEqual(uris.map((uri) => ({ code: -32602, message: expect.any(String), data: { uri } })));
      // The admin reads the same stored resource fine.
      const admin = await connectV1(mcpUrl(serverId), t.admin.token);
      expect((await admin.client.readResource({ uri: "crm://schema" })).contents).toEqual([{ uri: "crm://schema", mimeType: "text/plain", text: "# CRM schema" }]);
      await admin.close();
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });
});

describe("/mcp: the shared endpoint", () => {
  it("serves every tool the key may use across its workspace's servers, each connector once, with no resources", async () => {
    const t = await createTenant();
    const crm = await httpConnector(t, "CRM", "CRM setup notes.");
    const billing = await httpConnector(t, "Billing", null);
    const ops = await httpConnector(t, "Ops", null);
    const first = await server(t, [crm, billing], "First notes.", "First");
    await server(t, [billing, ops], null, "Second");
    const v1 = await connectV1(`${app.origin}/mcp`, t.admin.token);
    const v2 = await connectV2(`${app.origin}/mcp`, t.admin.token);
    try {
      for (const client of [v1.client, v2.client]) {
        expect(client.getServerCapabilities()?.resources).toBeUndefined();
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([expect.stringMatching(/^crm.*_get_customer$/), expect.stringMatching(/^billing.*_get_customer$/), expect.stringMatching(/^ops.*_get_customer$/)]);
        const result = await client.callTool({ name: tools[2].name, arguments: { id: "42" } });
        expect(text(result)).toContain("Ada");
        expect(client.getInstructions()).toBe("# First\n\nFirst notes.\n\n## CRM\n\nCRM setup notes.");
      }
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
    // A key pinned to one server sees that server's tools only.
    const pinned = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: first });
    const p = await connectV1(`${app.origin}/mcp`, pinned.token);
    expect((await p.client.listTools()).tools).toHaveLength(2);
    await p.close();
  });

  it("needs a user API key: the instance credential belongs to no workspace (404 that says so); no key is 401", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const post = (headers: Record<string, string>) =>
      fetch(`${app.origin}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(init) });
    const instance = await post({ authorization: `Bearer ${INSTANCE_KEY}` });
    expect(instance.status).toBe(404);
    expect((await instance.json()).error.message).toContain("user API key");
    expect((await post({})).status).toBe(401);
  });
});
