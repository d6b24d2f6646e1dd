import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { assignMcpRole, createHttpConnector, createMcpRole, createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2, rpcError } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { type FixtureServer, startFixtureServer } from "@/tests/fixtures/conformance-upstream/start-fixture-server";
import { PNG } from "@/tests/fixtures/conformance-upstream/register-tools";

/**
 * Issue 12 points 1 and 2 through a real `mcp` connector: the upstream's prompts (listed, got,
 * namespaced, whitelisted by roles, audited), its resources and resource templates (listed
 * beside the stored ones, read through, blobs unchanged), completion/complete routed to the
 * owning connector — with v1 (2025-11-25) and v2 (2026-07-28) clients, stateless and stateful.
 * The upstream is the project's conformance fixture (a v2 SDK server serving both eras).
 */

let app: RouteServer;
let upstream: FixtureServer;
beforeAll(async () => {
  [app, upstream] = await Promise.all([startRouteServer(), startFixtureServer()]);
  // The first connector creation and MCP request of a worker load the routes and the SDKs:
  // paid here, not inside the first test's time limit.
  const warm = await scenario();
  await (await connectV1(warm.url, warm.t.member.token)).close();
}, 120_000);
afterAll(async () => {
  delete process.env.MCP_STATEFUL_SESSIONS;
  await Promise.all([app.close(), upstream.close()]);
});

async function mcpConnector(t: Tenant, name = "Everything"): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name, type: "mcp", config: { url: upstream.url } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function scenario(connectors = 1) {
  const t = await createTenant();
  const ids = [await mcpConnector(t)];
  for (let i = 1; i < connectors; i++) ids.push(await mcpConnector(t, `Everything ${i + 1}`));
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Gateway", connectorIds: ids });
  expect(res.status, res.text).toBe(201);
  return { t, ids, serverId: res.body.id as string, url: `${app.origin}/mcp/${res.body.id}` };
}

/** The calls both SDKs' clients share, as these tests use them. */
type Call = (params?: any) => Promise<any>;
type AnyClient = { listPrompts: Call; getPrompt: Call; listResources: Call; readResource: Call; listResourceTemplates: Call; complete: Call; close(): Promise<void> };

const clients = {
  "v1 client (2025-11-25)": async (url: string, token: string) => {
    const c = await connectV1(url, token);
    return c.client as unknown as AnyClient;
  },
  "v2 client (2026-07-28)": async (url: string, token: string) => {
    const c = await connectV2(url, token);
    return c.client as unknown as AnyClient;
  },
};

const modes = { stateless: "false", stateful: "true" } as const;

describe.each(Object.entries(modes))("%s serving", (_mode, stateful) => {
  describe.each(Object.entries(clients))("%s", (_name, connect) => {
    it("lists and gets the upstream's prompts, with their arguments", async () => {
      // Both serving modes: stateless (the default) and stateful sessions.
      process.env.MCP_STATEFUL_SESSIONS = stateful;
      const { t, url } = await scenario();
      const client = await connect(url, t.member.token);
      try {
        const { prompts } = await client.listPrompts();
        expect(prompts.map((p: { name: string }) => p.name)).toEqual(
          expect.arrayContaining(["test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_simple_prompt"]),
        );
        const withArgs = prompts.find((p: { name: string }) => p.name === "test_prompt_with_arguments");
        expect(withArgs.arguments.map((a: { name: string }) => a.name)).toEqual(["arg1", "arg2"]);
        const got = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
        expect(got.messages[0].content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
        const image = await client.getPrompt({ name: "test_prompt_with_image" });
        expect(image.messages[0].content).toEqual({ type: "image", data: PNG, mimeType: "image/png" });
        expect((await rpcError(client.getPrompt({ name: "no_such_prompt" }))).code).toBe(-32602);
        // The upstream's own refusal (its arguments are missing) stays a JSON-RPC error with its code.
        const upstreamError = await rpcError(client.getPrompt({ name: "test_prompt_with_arguments", arguments: {} }));
        expect(upstreamError.code).toBe(-32602);
        expect(upstreamError.message).toMatch(/arg1/);
      } finally {
        await client.close();
      }
    });

    it("publishes the upstream's resources and templates and reads them through, blobs unchanged", async () => {
      // Both serving modes: stateless (the default) and stateful sessions.
      process.env.MCP_STATEFUL_SESSIONS = stateful;
      const { t, url } = await scenario();
      const client = await connect(url, t.member.token);
      try {
        const { resources } = await client.listResources();
        expect(resources.map((r: { uri: string }) => r.uri)).toEqual(expect.arrayContaining(["test://static-text", "test://static-binary", "test://watched-resource"]));
        const binary = await client.readResource({ uri: "test://static-binary" });
        expect(binary.contents).toEqual([{ uri: "test://static-binary", mimeType: "image/png", blob: PNG }]);
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate)).toEqual(["test://template/{id}/data"]);
        const templated = await client.readResource({ uri: "test://template/123/data" });
        expect(JSON.parse(templated.contents[0].text)).toMatchObject({ id: "123", templateTest: true });
        const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "x" } });
        expect(completion.completion.values).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });
});

describe("resources/subscribe", () => {
  it.each(Object.entries(modes))("%s: forwarded to the upstream and acknowledged", async (_mode, stateful) => {
    // Both serving modes: stateless (the default) and stateful sessions.
    process.env.MCP_STATEFUL_SESSIONS = stateful;
    const { t, url } = await scenario();
    const client = await connectV1(url, t.member.token);
    try {
      expect(client.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      expect(await client.client.subscribeResource({ uri: "test://watched-resource" })).toEqual({});
      expect(await client.client.unsubscribeResource({ uri: "test://watched-resource" })).toEqual({});
      expect((await rpcError(client.client.subscribeResource({ uri: "test://nowhere" }))).code).toBe(-32002);
    } finally {
      await client.close();
    }
  });
});

describe("prompts are named, whitelisted and audited like tools", () => {
  it("two connectors with the same prompt names get them prefixed with each connector's slug", async () => {
    process.env.MCP_STATEFUL_SESSIONS = "false";
    const { t, url } = await scenario(2);
    const client = await connectV2(url, t.member.token);
    try {
      const names = (await client.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).toContain("everything_test_simple_prompt");
      expect(names).toContain("everything_2_test_simple_prompt");
      const got = await client.client.getPrompt({ name: "everything_2_test_simple_prompt" });
      expect(got.messages[0].content).toEqual({ type: "text", text: "This is a simple prompt for testing." });
      // Both connectors claim the same upstream URIs: withheld, as duplicate stored URIs are.
      const uris = (await client.client.listResources()).resources.map((r) => r.uri);
      expect(uris).not.toContain("test://static-text");
    } finally {
      await client.close();
    }
  });

  it("the shared endpoint /mcp lists and gets the prompts of every server of the key's workspace, named across them", async () => {
    process.env.MCP_STATEFUL_SESSIONS = "false";
    const { t, ids } = await scenario();
    const second = await mcpConnector(t, "Other");
    expect((await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Second", connectorIds: [second] })).status).toBe(201);
    const client = await connectV1(`${app.origin}/mcp`, t.member.token);
    try {
      const names = (await client.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["everything_test_simple_prompt", "other_test_simple_prompt"]));
      const got = await client.client.getPrompt({ name: "other_test_prompt_with_arguments", arguments: { arg1: "x", arg2: "y" } });
      expect(got.messages[0].content).toEqual({ type: "text", text: "Prompt with arguments: arg1='x', arg2='y'" });
      await callEndingsWritten(); // endings follow the answers
      const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "prompt.get" }, select: { data: true } });
      expect(events.map((e) => (e.data as { connectorId: string }).connectorId)).toEqual([second]);
      expect(ids[0]).not.toBe(second);
    } finally {
      await client.close();
    }
  });

  it("a member's role hides prompts and upstream resources exactly as it hides tools", async () => {
    process.env.MCP_STATEFUL_SESSIONS = "false";
    const { t, ids, url } = await scenario();
    const http = await createHttpConnector(t, "CRM", ["get_customer"]);
    await api(t.admin.token).put(`/api/v1/servers/${url.split("/").pop()}/connectors`, { connectorIds: [ids[0], http] });
    // Only an http tool: the mcp connector contributes nothing — no prompt, no upstream resource.
    await assignMcpRole(t, t.member.user.id, await createMcpRole(t, [[http, "get_customer"]]));
    let client = await connectV1(url, t.member.token);
    try {
      expect(client.client.getServerCapabilities()?.prompts).toBeUndefined();
      expect((await client.client.listResources()).resources.map((r) => r.uri)).not.toContain("test://static-text");
      expect((await rpcError(client.client.readResource({ uri: "test://static-binary" }))).code).toBe(-32002);
      expect((await rpcError(client.client.readResource({ uri: "test://template/1/data" }))).code).toBe(-32002);
    } finally {
      await client.close();
    }
    // One prompt whitelisted: the connector contributes (its resources too), with that prompt only.
    await assignMcpRole(t, t.member.user.id, await createMcpRole(t, [[http, "get_customer"]], undefined, [[ids[0], "test_simple_prompt"]]));
    client = await connectV1(url, t.member.token);
    try {
      expect((await client.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["test_simple_prompt"]);
      expect((await rpcError(client.client.getPrompt({ name: "test_prompt_with_image" }))).code).toBe(-32602);
      expect((await client.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_customer"]);
      expect((await client.client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
    } finally {
      await client.close();
    }
  });

  it("another tenant's prompt is not found; the role API round-trips prompts; prompts/get is audited", async () => {
    process.env.MCP_STATEFUL_SESSIONS = "false";
    const { t, ids, url } = await scenario();
    const other = await createTenant();
    const stranger = await connectV2(`${app.origin}/mcp/${(await api(other.admin.token).post(`/api/v1/workspaces/${other.workspace.id}/servers`, { name: "O", connectorIds: [await createHttpConnector(other, "X", ["x"])] })).body.id}`, other.member.token);
    try {
      // That server publishes no prompt at all: the client is told there are none to get.
      expect(stranger.client.getServerCapabilities()?.prompts).toBeUndefined();
      await expect(stranger.client.getPrompt({ name: "test_simple_prompt" })).rejects.toThrow();
    } finally {
      await stranger.close();
    }
    const refused = await connectV2(url, other.member.token).then(() => "connected", (e: Error) => e.message);
    expect(refused).not.toBe("connected");

    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Prompts", tools: [], prompts: [{ connectorId: ids[0], prompt: "test_simple_prompt" }] });
    expect(role.status, role.text).toBe(201);
    expect(role.body.prompts).toEqual([{ connectorId: ids[0], prompt: "test_simple_prompt" }]);
    const bad = await api(t.admin.token).patch(`/api/v1/roles/${role.body.id}`, { prompts: [{ connectorId: "c".repeat(25), prompt: "p" }] });
    expect(bad.status).toBe(422);

    const client = await connectV2(url, t.member.token);
    try {
      await client.client.getPrompt({ name: "test_simple_prompt" });
    } finally {
      await client.close();
    }
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "prompt.get" }, select: { actorId: true, data: true } });
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ prompt: "test_simple_prompt", connectorId: ids[0], status: "finished", outcome: "ok" });
  });
});
