import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2, rpcError } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1ListUpstream, type ListUpstream } from "@/tests/helpers/v1-list-upstream";

/**
 * Issue 26 point 1: a server's curation of its tools (`/servers/{id}/tool-overrides`) against
 * a real upstream MCP server (v1 SDK, its tool list changeable, announcing list_changed) and
 * an http connector: rename, describe, annotate and hide; role grants that name the
 * connector's tool; collisions refused naming both; kept across reload and list_changed.
 */

let app: RouteServer;
let upstream: ListUpstream;
beforeAll(async () => {
  [app, upstream] = await Promise.all([startRouteServer(), startV1ListUpstream()]);
  upstream.tools.push("archive");
}, 120_000);
afterAll(async () => {
  await Promise.all([app.close(), upstream.close()]);
});

async function scenario(opts: { toolWhitelistsEnabled?: boolean } = {}) {
  const t = await createTenant(opts);
  const memo = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Memo", type: "mcp", config: { url: upstream.url } });
  expect(memo.status, memo.text).toBe(201);
  const crm = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    name: "CRM",
    type: "http",
    instructions: "CRM notes for the model.",
    config: { baseUrl: "https://crm.example.com" },
    tools: [
      { name: "get_customer", request: { method: "GET", path: "/customers/{id}" } },
      { name: "list_customers", request: { method: "GET", path: "/customers" } },
    ],
  });
  expect(crm.status, crm.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", connectorIds: [memo.body.id, crm.body.id] });
  return { t, memo: memo.body.id as string, crm: crm.body.id as string, serverId: server.body.id as string, url: `${app.origin}/mcp/${server.body.id}` };
}

const overridesPath = (serverId: string) => `/api/v1/servers/${serverId}/tool-overrides`;

async function tools(url: string, token: string) {
  const v2 = await connectV2(url, token);
  try {
    return (await v2.client.listTools()).tools;
  } finally {
    await v2.close();
  }
}

async function put(t: Tenant, serverId: string, items: unknown[], headers: Record<string, string> = {}) {
  return api(t.admin.token).put(overridesPath(serverId), { items }, { headers });
}

describe("tool overrides per MCP server", () => {
  it("rename, describe and annotate: the model sees the override, the call reaches the upstream under its own name, the audit has both", async () => {
    const { t, memo, serverId, url } = await scenario();
    const set = await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "find_note", title: "Find a note", description: "Finds one note by its words.", annotations: { readOnlyHint: true } }]);
    expect(set.status, set.text).toBe(200);
    expect(set.body.items).toEqual([{ connectorId: memo, tool: "lookup", name: "find_note", title: "Find a note", description: "Finds one note by its words.", annotations: { readOnlyHint: true }, missing: false }]);
    const listed = await tools(url, t.member.token);
    expect(listed.map((tool) => tool.name)).toEqual(["find_note", "archive", "get_customer", "list_customers"]);
    expect(listed[0]).toMatchObject({ title: "Find a note", description: "Finds one note by its words.", annotations: { readOnlyHint: true } });
    const v1 = await connectV1(url, t.member.token);
    try {
      const result = await v1.client.callTool({ name: "find_note", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "called lookup" }]);
      // The connector's own name still reaches it (not listed): a tool's MCP App calls its tools by their upstream names.
      expect((await v1.client.callTool({ name: "lookup", arguments: {} })).content).toEqual([{ type: "text", text: "called lookup" }]);
    } finally {
      await v1.close();
    }
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "tool.call" }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ tool: "lookup", exposedName: "find_note" }), expect.objectContaining({ tool: "lookup", exposedName: "find_note" })]);
    const setEvent = await db().auditEvent.findFirst({ where: { orgId: t.org.id, action: "server.tool_overrides.set" } });
    expect(setEvent?.targetId).toBe(serverId);
  });

  it("a renamed tool keeps the role grants that name the connector's tool", async () => {
    const { t, memo, serverId, url } = await scenario({ toolWhitelistsEnabled: true });
    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Notes", tools: [{ connectorId: memo, tool: "lookup" }] });
    await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
    expect((await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "find_note" }])).status).toBe(200);
    expect((await tools(url, t.member.token)).map((tool) => tool.name)).toEqual(["find_note"]);
  });

  it("a hidden tool is neither listed nor callable, and a connector whose tools are all hidden contributes no instructions or resources", async () => {
    const { t, crm, serverId, url } = await scenario();
    const before = await connectV1(url, t.member.token);
    expect(before.client.getInstructions()).toContain("CRM notes for the model.");
    await before.close();
    const set = await put(t, serverId, [
      { connectorId: crm, tool: "get_customer", hidden: true },
      { connectorId: crm, tool: "list_customers", hidden: true },
    ]);
    expect(set.status, set.text).toBe(200);
    const v1 = await connectV1(url, t.member.token);
    try {
      expect((await v1.client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup", "archive"]);
      expect(v1.client.getInstructions() ?? "").not.toContain("CRM notes");
      const uris = (await v1.client.listResources()).resources.map((r) => r.uri);
      expect(uris.some((u) => u.includes(crm))).toBe(false);
      const hidden = await rpcError(v1.client.callTool({ name: "get_customer", arguments: { id: "1" } }));
      expect(hidden).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: get_customer") });
    } finally {
      await v1.close();
    }
  });

  it("two published names may never collide: 422 naming both; hiding the other tool makes the rename fit", async () => {
    const { t, memo, crm, serverId } = await scenario();
    const clash = await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "get_customer" }]);
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([{ path: "items.0.name", message: expect.stringMatching(/"get_customer" of memo\/lookup collides with crm\/get_customer/) }]);
    const twice = await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "same" }, { connectorId: memo, tool: "archive", name: "same" }]);
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].message).toMatch(/memo\/lookup|memo\/archive/);
    const fits = await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "get_customer" }, { connectorId: crm, tool: "get_customer", hidden: true }]);
    expect(fits.status, fits.text).toBe(200);
    const foreign = await put(t, serverId, [{ connectorId: "cnn_not_assigned", tool: "x" }]);
    expect(foreign.status).toBe(422);
  });

  it("a rename may not take the name the clash rule gives two other tools (<slug>_<name>, the slug's hyphens as _): 422 naming the tool published so", async () => {
    const { t, crm, serverId, url } = await scenario();
    // A second connector with a tool "lookup": Memo's and its own are published prefixed with their slugs.
    const desk = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Help Desk",
      type: "http",
      config: { baseUrl: "https://desk.example.com" },
      tools: [{ name: "lookup", request: { method: "GET", path: "/tickets" } }],
    });
    expect(desk.status, desk.text).toBe(201);
    const memo = (await api(t.admin.token).get(`/api/v1/servers/${serverId}`)).body.connectorIds[0];
    expect((await api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [memo, crm, desk.body.id] })).status).toBe(200);
    expect((await tools(url, t.admin.token)).map((tool) => tool.name).sort()).toEqual(["archive", "get_customer", "help_desk_lookup", "list_customers", "memo_lookup"]);
    const taken = await put(t, serverId, [{ connectorId: crm, tool: "list_customers", name: "help_desk_lookup" }]);
    expect(taken.status, taken.text).toBe(422);
    expect(taken.body.errors).toEqual([{ path: "items.0.name", message: expect.stringContaining('"help_desk_lookup" of crm/list_customers collides with help-desk/lookup (published as "help_desk_lookup"') }]);
    // Nothing changed: the names stay as they were.
    expect((await tools(url, t.admin.token)).map((tool) => tool.name).sort()).toEqual(["archive", "get_customer", "help_desk_lookup", "list_customers", "memo_lookup"]);
    // "lookup" is the own name of two tools here: it reaches neither.
    const v1 = await connectV1(url, t.admin.token);
    try {
      const ambiguous = await rpcError(v1.client.callTool({ name: "lookup", arguments: {} }));
      const missing = await rpcError(v1.client.callTool({ name: "no_such_tool", arguments: {} }));
      expect(ambiguous.code).toBe(missing.code);
      expect(ambiguous.message).toBe(missing.message.replace("no_such_tool", "lookup"));
    } finally {
      await v1.close();
    }
  });

  it("taking a connector off the server deletes its overrides with it; the others stay", async () => {
    const { t, memo, crm, serverId } = await scenario();
    expect((await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "find_note" }, { connectorId: crm, tool: "list_customers", hidden: true }])).status).toBe(200);
    expect((await api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [crm] })).status).toBe(200);
    const left = await api(t.admin.token).get(overridesPath(serverId));
    expect(left.body.items).toEqual([{ connectorId: crm, tool: "list_customers", hidden: true, missing: false }]);
    // What GET answers can be sent back as it is.
    expect((await put(t, serverId, left.body.items.map(({ missing: _missing, ...item }: { missing: boolean }) => item))).status).toBe(200);
    expect((await api(t.admin.token).put(`/api/v1/servers/${serverId}/connectors`, { connectorIds: [memo, crm] })).status).toBe(200);
    expect((await api(t.admin.token).get(overridesPath(serverId))).body.items.map((i: { connectorId: string }) => i.connectorId)).toEqual([crm]);
  });

  it("the set is versioned like the server's other sets: a stale If-Match is 412; another tenant gets 404", async () => {
    const { t, memo, serverId } = await scenario();
    const first = await api(t.admin.token).get(overridesPath(serverId));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ items: [] });
    const etag = first.headers.get("etag")!;
    expect((await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "a" }], { "if-match": etag })).status).toBe(200);
    expect((await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "b" }], { "if-match": etag })).status).toBe(412);
    const other = await createTenant();
    expect((await api(other.admin.token).get(overridesPath(serverId))).status).toBe(404);
    expect((await api(t.member.token).put(overridesPath(serverId), { items: [] })).status).toBe(404);
  });

  it("kept across a reload and the upstream's list_changed; an override whose tool disappeared is kept and shown as missing", async () => {
    const own = await startV1ListUpstream();
    try {
      const { t, memo, serverId, url } = await scenario();
      // Approval off: the tool that comes back is served at once (with approval on it would wait as a new tool).
      await api(t.admin.token).patch(`/api/v1/connectors/${memo}`, { config: { url: own.url, toolApproval: false } });
      expect((await put(t, serverId, [{ connectorId: memo, tool: "lookup", name: "find_note", description: "curated" }])).status).toBe(200);
      expect((await api(t.admin.token).post(`/api/v1/connectors/${memo}/reload`, {})).status).toBe(200);
      expect((await tools(url, t.admin.token)).find((tool) => tool.name === "find_note")?.description).toBe("curated");
      // A call opens the pooled upstream connection that hears list_changed.
      const v1 = await connectV1(url, t.admin.token);
      await v1.client.callTool({ name: "find_note", arguments: {} });
      await v1.close();
      own.tools.splice(0, own.tools.length, "other");
      await own.changed("tools");
      await vi.waitFor(async () => expect((await api(t.admin.token).get(overridesPath(serverId))).body.items[0]).toMatchObject({ tool: "lookup", name: "find_note", missing: true }), { timeout: 8000 });
      own.tools.splice(0, own.tools.length, "lookup");
      const v1again = await connectV1(url, t.admin.token);
      await v1again.client.callTool({ name: "other", arguments: {} }).catch(() => undefined);
      await v1again.close();
      await own.changed("tools");
      await vi.waitFor(async () => expect((await tools(url, t.admin.token)).map((tool) => [tool.name, tool.description])).toEqual([["find_note", "curated"], ["get_customer", undefined], ["list_customers", undefined]]), { timeout: 8000 });
    } finally {
      await own.close();
    }
  });
});
