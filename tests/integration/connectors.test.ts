import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { decryptJson } from "@/lib/crypto/secret-box";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { deadUpstreamUrl, startMcpUpstream } from "@/tests/helpers/mcp-upstream";

const SECRET = "Bearer crm-secret-7f3a9c1e";
const SECRET_2 = "key-5be0d1d2c4a6";

const crmBody = (overrides: Record<string, unknown> = {}) => ({
  name: "CRM",
  type: "http",
  instructions: "Use **get_customer** first.",
  config: { baseUrl: "https://api.example.com", headers: { Authorization: SECRET, "X-Api-Key": SECRET_2 } },
  tools: [
    {
      name: "get_customer",
      description: "Fetch one customer",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      request: { method: "GET", path: "/customers/{id}" },
    },
    { name: "create_note", request: { method: "POST", path: "/notes" } },
  ],
  ...overrides,
});

async function createCrm(t: Tenant, overrides: Record<string, unknown> = {}) {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody(overrides));
  expect(res.status).toBe(201);
  return res.body;
}

/** Every audit row of the organization, as one string to grep. */
async function auditText(orgId: string): Promise<string> {
  return JSON.stringify(await db().auditEvent.findMany({ where: { orgId } }));
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("http connectors", () => {
  it("an admin creates one: 201 with the contract's fields, tools in order, header names but no secrets", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      orgId: t.org.id,
      name: "CRM",
      slug: "crm",
      type: "http",
      instructions: "Use **get_customer** first.",
      config: { baseUrl: "https://api.example.com" },
      hasSecretHeaders: ["Authorization", "X-Api-Key"],
      protocolVersion: null,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(res.body.config).not.toHaveProperty("headers");
    expect(res.body.tools).toEqual([
      {
        name: "get_customer",
        title: null,
        description: "Fetch one customer",
        inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        request: { method: "GET", path: "/customers/{id}" },
        // Stored as given: none here (tools/list serves the method's defaults, issue 26 point 3).
        annotations: null, outputSchema: null, response: null, approval: null,
      },
      { name: "create_note", title: null, description: "", inputSchema: { type: "object" }, request: { method: "POST", path: "/notes" }, annotations: null, outputSchema: null, response: null, approval: null },
    ]);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain(SECRET_2);
  });

  it("stores the headers only encrypted, and never writes them to the audit trail", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const row = await db().connector.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretHeaders).toBeTruthy();
    expect(row.secretHeaders).not.toContain(SECRET);
    expect(row.secretHeaders).not.toContain(SECRET_2);
    expect(JSON.stringify(row.config)).not.toContain(SECRET);
    expect(decryptJson(row.secretHeaders!)).toEqual({ Authorization: SECRET, "X-Api-Key": SECRET_2 });

    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connector.create", targetId: created.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: "api_key", actorId: t.admin.user.id });
    const audit = await auditText(t.org.id);
    expect(audit).not.toContain(SECRET);
    expect(audit).not.toContain(SECRET_2);
  });

  it("GET and the list never return secrets either", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const one = await api(t.owner.token).get(`/api/v1/connectors/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created);
    const list = await api(INSTANCE_KEY).get(`/api/v1/orgs/${t.org.id}/connectors`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([created]);
    for (const text of [one.text, list.text]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET_2);
    }
  });

  it("derives the slug from the name, unique per organization", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createCrm(t, { name: "Sales CRM!" })).slug);
    expect(slugs).toEqual(["sales-crm", "sales-crm-2", "sales-crm-3"]);
    expect((await createCrm(other, { name: "Sales CRM!" })).slug).toBe("sales-crm");
    expect((await createCrm(t, { name: "¡¡¡" })).slug).toBe("connector");
  });

  it("lists with cursor pagination", async () => {
    const t = await createTenant();
    for (const name of ["A", "B", "C"]) await createCrm(t, { name, tools: [] });
    const page1 = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors?limit=2`);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).toBe(page1.body.items[1].id);
    const page2 = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.nextCursor).toBeNull();
    const names = [...page1.body.items, ...page2.body.items].map((c: { name: string }) => c.name).sort();
    expect(names).toEqual(["A", "B", "C"]);
  });

  it.each([
    ["a tool without request", { tools: [{ name: "x" }] }, "tools.0.request"],
    ["duplicate tool names", { tools: [{ name: "x", request: { method: "GET", path: "/a" } }, { name: "x", request: { method: "GET", path: "/b" } }] }, "tools.1.name"],
    ["a tool name with a space", { tools: [{ name: "get customer", request: { method: "GET", path: "/a" } }] }, "tools.0.name"],
    ["a tool name longer than 64", { tools: [{ name: "x".repeat(65), request: { method: "GET", path: "/a" } }] }, "tools.0.name"],
    ["an array input schema", { tools: [{ name: "x", inputSchema: { type: "array" }, request: { method: "GET", path: "/a" } }] }, "tools.0.inputSchema.type"],
    ["an input schema without type", { tools: [{ name: "x", inputSchema: { properties: {} }, request: { method: "GET", path: "/a" } }] }, "tools.0.inputSchema.type"],
    ["an unknown HTTP method", { tools: [{ name: "x", request: { method: "TRACE", path: "/a" } }] }, "tools.0.request.method"],
    ["a relative request path", { tools: [{ name: "x", request: { method: "GET", path: "a" } }] }, "tools.0.request.path"],
    ["an unknown type", { type: "ftp" }, "type"],
    ["a baseUrl that is no URL", { config: { baseUrl: "not a url" } }, "config.baseUrl"],
    ["credentials in the baseUrl", { config: { baseUrl: "https://user:pw@api.example.com" } }, "config.baseUrl"],
    ["an empty name", { name: "  " }, "name"],
    ["the same header twice in different case", { config: { baseUrl: "https://a.example", headers: { "X-Key": "a", "x-key": "b" } } }, "config.headers.x-key"],
    ["a header the transport sets itself", { config: { baseUrl: "https://a.example", headers: { Host: "evil.example" } } }, "config.headers.Host"],
  ])("refuses %s with 422 naming the field", async (_label, override, path) => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody(override));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await db().connector.count({ where: { orgId: t.org.id } })).toBe(0);
  });

  it("refuses a header value with a line break without echoing it", async () => {
    const t = await createTenant();
    const value = "Bearer leak-me\r\nX-Evil: 1";
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody({ config: { baseUrl: "https://a.example", headers: { Authorization: value } } }));
    expect(res.status).toBe(422);
    expect(res.text).not.toContain("leak-me");
  });

  it("plain members and other organizations get 404; the instance credential may create", async () => {
    const t = await createTenant();
    const other = await createTenant();
    for (const token of [t.member.token, other.owner.token]) {
      const res = await api(token).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody());
      expect(res.status).toBe(404);
    }
    expect(await db().connector.count({ where: { orgId: t.org.id } })).toBe(0);
    const created = await api(INSTANCE_KEY).post(`/api/v1/orgs/${t.org.id}/connectors`, crmBody());
    expect(created.status).toBe(201);
    expect((await api(t.member.token).get(`/api/v1/connectors/${created.body.id}`)).status).toBe(404);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/connectors`)).status).toBe(404);
  });
});

describe("changing and deleting connectors", () => {
  it("PATCH renames, clears instructions, replaces the tool set, and keeps the slug", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const res = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, {
      name: "Customer CRM",
      instructions: null,
      config: { baseUrl: "https://v2.example.com" },
      tools: [{ name: "list_customers", request: { method: "GET", path: "/customers" } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Customer CRM", slug: "crm", instructions: null, config: { baseUrl: "https://v2.example.com" } });
    expect(res.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["list_customers"]);
    expect(res.body.hasSecretHeaders).toEqual(["Authorization", "X-Api-Key"]);
    expect(await db().tool.count({ where: { connectorId: created.id } })).toBe(1);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "connector.update", targetId: created.id } });
    expect(event.data).toMatchObject({ fields: expect.arrayContaining(["name", "instructions", "tools", "config.baseUrl"]) });
  });

  it("PATCH headers replaces the whole secret set, and {} clears it; secrets never come back", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const replaced = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { headers: { "X-Token": "tok-93be71aa" } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.hasSecretHeaders).toEqual(["X-Token"]);
    expect(replaced.body.config).toEqual({ baseUrl: "https://api.example.com" });
    expect(replaced.text).not.toContain("tok-93be71aa");
    const row = await db().connector.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretHeaders).not.toContain("tok-93be71aa");
    expect(decryptJson(row.secretHeaders!)).toEqual({ "X-Token": "tok-93be71aa" });

    const cleared = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { headers: {} } });
    expect(cleared.body.hasSecretHeaders).toEqual([]);
    expect((await db().connector.findUniqueOrThrow({ where: { id: created.id } })).secretHeaders).toBeNull();
    const audit = await auditText(t.org.id);
    for (const secret of [SECRET, SECRET_2, "tok-93be71aa"]) expect(audit).not.toContain(secret);
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connector.update" } });
    expect(events.map((e) => (e.data as { fields: string[] }).fields)).toEqual([["config.headers"], ["config.headers"]]);
  });

  it("PATCH headerChanges changes one secret header and keeps the others without retyping them", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const changed = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, {
      config: { headerChanges: { set: { "x-api-key": "new-key-5f1c" }, remove: [] } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.hasSecretHeaders).toEqual(["Authorization", "x-api-key"]);
    const stored = async () => decryptJson((await db().connector.findUniqueOrThrow({ where: { id: created.id } })).secretHeaders!);
    expect(await stored()).toEqual({ Authorization: SECRET, "x-api-key": "new-key-5f1c" });

    const removed = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { headerChanges: { remove: ["AUTHORIZATION"], set: { "X-Extra": "e" } } } });
    expect(removed.body.hasSecretHeaders).toEqual(["X-Extra", "x-api-key"]);
    expect(await stored()).toEqual({ "x-api-key": "new-key-5f1c", "X-Extra": "e" });

    const reserved = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { headerChanges: { set: { Host: "evil.example" } } } });
    expect(reserved.status).toBe(422);
    expect(reserved.body.errors).toContainEqual(expect.objectContaining({ path: "config.headerChanges.set.Host" }));
    const both = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { headers: {}, headerChanges: { remove: ["X-Extra"] } } });
    expect(both.status).toBe(422);
    expect(await stored()).toEqual({ "x-api-key": "new-key-5f1c", "X-Extra": "e" });
  });

  it("PATCH refuses fields of the other connector type", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    const res = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, { config: { url: "https://mcp.example.com/mcp" } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "config.url" }));
    const dup = await api(t.admin.token).patch(`/api/v1/connectors/${created.id}`, {
      tools: [{ name: "a", request: { method: "GET", path: "/" } }, { name: "a", request: { method: "GET", path: "/" } }],
    });
    expect(dup.status).toBe(422);
    expect((await api(t.admin.token).get(`/api/v1/connectors/${created.id}`)).body).toEqual(created);
  });

  it("DELETE removes the connector with its tools and stored resources, and is audited", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    await api(t.admin.token).post(`/api/v1/connectors/${created.id}/resources`, { uri: "crm://schema", name: "Schema" });
    const res = await api(t.owner.token).delete(`/api/v1/connectors/${created.id}`);
    expect(res.status).toBe(204);
    expect((await api(t.owner.token).get(`/api/v1/connectors/${created.id}`)).status).toBe(404);
    expect((await api(t.owner.token).delete(`/api/v1/connectors/${created.id}`)).status).toBe(404);
    expect(await db().tool.count({ where: { connectorId: created.id } })).toBe(0);
    expect(await db().storedResource.count({ where: { connectorId: created.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "connector.delete", targetId: created.id } })).toBe(1);
  });
});

describe("mcp connectors (real upstream MCP server on 127.0.0.1)", () => {
  const UPSTREAM_SECRET = "Bearer upstream-4c1d9e";

  async function upstreamWithTools(names: string[]) {
    const upstream = await startMcpUpstream({
      tools: names.map((name) => ({ name, description: `does ${name}`, inputSchema: { type: "object", properties: { q: { type: "string" } } } })),
      pageSize: 2,
      requireHeaders: { authorization: UPSTREAM_SECRET },
    });
    closers.push(upstream.close);
    return upstream;
  }

  it("discovers every tool (all pages) at creation, sending the secret headers, and stores the protocol version", async () => {
    const t = await createTenant();
    const upstream = await upstreamWithTools(["search", "fetch", "summarize"]);
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: upstream.url, headers: { Authorization: UPSTREAM_SECRET } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "mcp", slug: "docs", config: { url: upstream.url }, hasSecretHeaders: ["Authorization"], protocolVersion: "2026-07-28" });
    expect(res.body.tools).toEqual([
      { name: "search", title: null, description: "does search", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: null, annotations: null, outputSchema: null, response: null, approval: null },
      { name: "fetch", title: null, description: "does fetch", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: null, annotations: null, outputSchema: null, response: null, approval: null },
      { name: "summarize", title: null, description: "does summarize", inputSchema: { type: "object", properties: { q: { type: "string" } } }, request: null, annotations: null, outputSchema: null, response: null, approval: null },
    ]);
    expect(upstream.listCalls).toBe(2);
    expect(upstream.seenHeaders.every((h) => h.authorization === UPSTREAM_SECRET)).toBe(true);
    expect(res.text).not.toContain(UPSTREAM_SECRET);
    expect(await auditText(t.org.id)).not.toContain(UPSTREAM_SECRET);
  });

  it("a 2025-era upstream is reached through initialize and its protocol version is stored", async () => {
    const t = await createTenant();
    const upstream = await startMcpUpstream({ tools: [{ name: "ping" }], era: "legacy" });
    closers.push(upstream.close);
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Old", type: "mcp", config: { url: upstream.url } });
    expect(res.status).toBe(201);
    expect(res.body.protocolVersion).toMatch(/^2025-/);
    expect(res.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["ping"]);
  });

  it("a dead upstream refuses the creation with a clear 422 on config.url, and nothing is created", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: await deadUpstreamUrl(), headers: { Authorization: UPSTREAM_SECRET } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].path).toBe("config.url");
    expect(res.body.errors[0].message).toMatch(/could not be reached/);
    expect(res.text).not.toContain(UPSTREAM_SECRET);
    expect(await db().connector.count({ where: { orgId: t.org.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "connector.create" } })).toBe(0);
  });

  it("an upstream that refuses our credential is refused the same way", async () => {
    const t = await createTenant();
    const upstream = await upstreamWithTools(["search"]);
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: upstream.url, headers: { Authorization: "Bearer wrong-credential-77" } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ path: "config.url", message: expect.stringContaining("401") });
    expect(res.text).not.toContain("wrong-credential-77");
    expect(await db().connector.count({ where: { orgId: t.org.id } })).toBe(0);
  });

  it("refuses tools in the body of an mcp connector", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: "http://127.0.0.1:1/mcp" },
      tools: [{ name: "x", request: { method: "GET", path: "/" } }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "tools" }));
  });

  it("reload re-discovers the tools and is audited; a dead upstream leaves the connector unchanged (503)", async () => {
    const t = await createTenant();
    const upstream = await upstreamWithTools(["search", "fetch"]);
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: upstream.url, headers: { Authorization: UPSTREAM_SECRET } },
    });
    expect(created.status).toBe(201);

    upstream.tools.splice(0, upstream.tools.length, { name: "search" }, { name: "translate" }, { name: "index" });
    const reloaded = await api(t.admin.token).post(`/api/v1/connectors/${created.body.id}/reload`);
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["search", "translate", "index"]);
    expect(reloaded.body.id).toBe(created.body.id);
    expect(reloaded.text).not.toContain(UPSTREAM_SECRET);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "connector.reload", targetId: created.body.id } });
    expect(event.data).toMatchObject({ toolCount: 3, protocolVersion: "2026-07-28" });

    await upstream.close();
    const before = await db().connector.findUniqueOrThrow({ where: { id: created.body.id }, include: { tools: { orderBy: { position: "asc" } } } });
    const failed = await api(t.admin.token).post(`/api/v1/connectors/${created.body.id}/reload`);
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toMatch(/upstream .*unreachable/i);
    expect(failed.text).not.toContain(UPSTREAM_SECRET);
    const after = await db().connector.findUniqueOrThrow({ where: { id: created.body.id }, include: { tools: { orderBy: { position: "asc" } } } });
    expect(after).toEqual(before);
  });

  it("reload of an http connector is refused with 422; a member gets 404", async () => {
    const t = await createTenant();
    const created = await createCrm(t);
    expect((await api(t.admin.token).post(`/api/v1/connectors/${created.id}/reload`)).status).toBe(422);
    expect((await api(t.member.token).post(`/api/v1/connectors/${created.id}/reload`)).status).toBe(404);
  });

  it("PATCH of an mcp connector changes its url and headers but refuses tools", async () => {
    const t = await createTenant();
    const upstream = await upstreamWithTools(["search"]);
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Docs",
      type: "mcp",
      config: { url: upstream.url, headers: { Authorization: UPSTREAM_SECRET } },
    });
    const tools = await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { tools: [] });
    expect(tools.status).toBe(422);
    const baseUrl = await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { config: { baseUrl: "https://x.example" } });
    expect(baseUrl.status).toBe(422);
    const moved = await api(t.admin.token).patch(`/api/v1/connectors/${created.body.id}`, { config: { url: "https://mcp.example.com/mcp" } });
    expect(moved.status).toBe(200);
    // The answer names the era and transport too (issue 12 point 6); a url change keeps them.
    // New mcp connectors hold changed tools for approval (issue 26 point 2).
    expect(moved.body.config).toEqual({ url: "https://mcp.example.com/mcp", protocolEra: "auto", transport: "streamable-http", toolApproval: true });
    expect(moved.body.hasSecretHeaders).toEqual(["Authorization"]);
    expect(moved.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["search"]);
  });
});
