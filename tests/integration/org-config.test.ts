import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { db } from "@/lib/db/client";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { openHeaders } from "@/lib/connectors/secret-headers";
import { api, request } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { connectV1 } from "@/tests/helpers/mcp-clients";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 27 point 1: an organization as one document — export, plan, apply, secrets — driven
 * through the route handlers, with the MCP surface read by a real MCP client over real HTTP.
 */

let app: RouteServer;
let upstream: Upstream;
const UPSTREAM_TOKEN = "Bearer upstream-s3cret-value";
const CRM_TOKEN = "Bearer crm-s3cret-value";

beforeAll(async () => {
  app = await startRouteServer();
  upstream = await startMcpUpstream({
    tools: [{ name: "search_docs", description: "Search the docs", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
    requireHeaders: { authorization: UPSTREAM_TOKEN },
    catalog: { prompts: 2, resources: 2, pageSize: 10, prefix: "u" },
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

const yaml = (text: string) => ({ raw: text, headers: { "content-type": "application/yaml" } });

/** Org A: an http and an mcp connector (with secret headers, a resource, a graph), a server, ordered skills and a role its member has. */
async function orgA(): Promise<{ t: Tenant; serverId: string }> {
  const t = await createTenant({ toolWhitelistsEnabled: true });
  const a = api(t.owner.token);
  const crm = await a.post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name: "CRM",
    instructions: "Customers live here.",
    config: { baseUrl: "https://crm.example.com", headers: { Authorization: CRM_TOKEN } },
    tools: [
      { name: "get_customer", title: "Get a customer", description: "One customer", request: { method: "GET", path: "/customers/{id}" }, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      // What an admin sets on an http tool (issue 26) must survive export → apply: the surface comparison below sees it.
      {
        name: "list_customers",
        request: { method: "GET", path: "/customers" },
        annotations: { readOnlyHint: true, openWorldHint: false },
        response: { select: "{ count: length(@) }" },
        outputSchema: { type: "object", properties: { count: { type: "number" } } },
      },
    ],
  });
  expect(crm.status, crm.text).toBe(201);
  const docs = await a.post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Docs", config: { url: upstream.url, headers: { Authorization: UPSTREAM_TOKEN } } });
  expect(docs.status, docs.text).toBe(201);
  expect((await a.post(`/api/v1/connectors/${crm.body.id}/resources`, { uri: "crm://schema", name: "CRM schema", mimeType: "text/plain", fetchConfig: { text: "customers(id, name)" } })).status).toBe(201);
  expect((await a.put(`/api/v1/connectors/${crm.body.id}/graph`, { entities: [{ key: "customer", label: "Customer" }], relations: [] })).status).toBe(200);
  const server = await a.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", instructions: "Be kind.", connectorIds: [docs.body.id, crm.body.id] });
  expect(server.status, server.text).toBe(201);
  // The server's curation goes round-trip too: the surface comparison below sees it.
  const curated = await a.put(`/api/v1/servers/${server.body.id}/tool-overrides`, {
    items: [
      { connectorId: docs.body.id, tool: "search_docs", description: "Search our docs first." },
      { connectorId: crm.body.id, tool: "get_customer", title: "Look up a customer", annotations: { readOnlyHint: true } },
    ],
  });
  expect(curated.status, curated.text).toBe(200);
  // Created "zeta" first: the instructions show it first, and so must the document.
  for (const name of ["zeta", "alpha"]) expect((await a.post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name, content: `Skill ${name}.` })).status).toBe(201);
  const role = await a.post(`/api/v1/orgs/${t.org.id}/roles`, {
    name: "support",
    tools: [{ connectorId: crm.body.id, tool: "get_customer" }, { connectorId: docs.body.id, tool: "search_docs" }],
    prompts: [{ connectorId: docs.body.id, prompt: "up0" }],
  });
  expect(role.status, role.text).toBe(201);
  await a.patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
  return { t, serverId: server.body.id };
}

/** What a caller sees on a server: tools, resources, prompts and instructions, with ids blanked. */
async function surface(serverId: string, token: string) {
  const c = await connectV1(`${app.origin}/mcp/${serverId}`, token);
  try {
    const [tools, resources, prompts] = await Promise.all([c.client.listTools(), c.client.listResources(), c.client.listPrompts()]);
    const seen = { tools: tools.tools, resources: resources.resources, prompts: prompts.prompts, instructions: c.client.getInstructions() };
    return JSON.parse(JSON.stringify(seen).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|c[a-z0-9]{24}/g, "<id>"));
  } finally {
    await c.close();
  }
}

async function exportYaml(t: Tenant) {
  const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`);
  expect(res.status, res.text).toBe(200);
  return { text: res.text, etag: res.headers.get("etag")!, doc: parse(res.text) };
}

describe("GET /orgs/{orgId}/config", () => {
  it("exports the org as YAML by slug and name, secrets as references, skills in the instructions' order; JSON on request", async () => {
    const { t, serverId } = await orgA();
    const { text, etag, doc } = await exportYaml(t);
    expect(etag).toMatch(/^"/);
    for (const id of [t.org.id, t.workspace.id, serverId]) expect(text).not.toContain(id);
    expect(text).not.toContain(t.org.slug);
    expect(text).not.toContain("s3cret-value");
    const crm = doc.connectors.find((c: { slug: string }) => c.slug === "crm");
    expect(crm.headers).toEqual({ Authorization: "${secret:CRM_AUTHORIZATION}" });
    expect(crm.tools.map((x: { name: string }) => x.name)).toEqual(["get_customer", "list_customers"]);
    expect(crm.tools[1]).toMatchObject({ annotations: { readOnlyHint: true, openWorldHint: false }, response: { select: "{ count: length(@) }" }, outputSchema: { type: "object" } });
    expect(crm.tools[0]).not.toHaveProperty("annotations");
    expect(crm.resources[0]).toMatchObject({ uri: "crm://schema", fetchConfig: { text: "customers(id, name)" } });
    expect(doc.connectors.find((c: { slug: string }) => c.slug === "docs").tools[0].name).toBe("search_docs");
    const main = doc.workspaces.find((w: { slug: string }) => w.slug === "main");
    expect(main.servers).toEqual([{ name: "Support", instructions: "Be kind.", connectors: ["docs", "crm"], tools: [{ connector: "crm", tool: "get_customer", title: "Look up a customer", annotations: { readOnlyHint: true } }, { connector: "docs", tool: "search_docs", description: "Search our docs first." }] }]);
    expect(main.skills.map((s: { name: string }) => s.name)).toEqual(["zeta", "alpha"]);
    expect(doc.roles[0]).toEqual({ name: "support", tools: [{ connector: "crm", tool: "get_customer" }, { connector: "docs", tool: "search_docs" }], prompts: [{ connector: "docs", prompt: "up0" }] });

    const json = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`, { headers: { accept: "application/json" } });
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(json.body).toEqual(doc);
    expect(json.headers.get("etag")).toBe(etag);
    // A document answer is built by its route, not the API's JSON writer: it still carries the request id logs are searched by.
    const traced = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`, { headers: { "x-request-id": "config-export-1" } });
    expect(traced.headers.get("x-request-id")).toBe("config-export-1");
  });

  it("answers 409 naming two objects of the same key", async () => {
    const t = await createTenant();
    for (let i = 0; i < 2; i++) await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Twin" });
    const res = await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}/config`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('server "main/Twin"');
  });
});

describe("apply to another org", () => {
  it("gives an empty org the same MCP surface for a caller of the same role; a second apply plans nothing", async () => {
    const { t: a, serverId } = await orgA();
    const { text } = await exportYaml(a);
    const b = await createTenant();
    const bApi = api(b.owner.token);

    const unresolved = await bApi.post(`/api/v1/orgs/${b.org.id}/config/apply`, undefined, yaml(text));
    expect(unresolved.status, unresolved.text).toBe(422);
    expect(unresolved.body.errors.map((e: { message: string }) => e.message).join(" ")).toContain('"CRM_AUTHORIZATION"');
    expect(await db().connector.count({ where: { orgId: b.org.id } })).toBe(0); // all or nothing

    expect((await bApi.put(`/api/v1/orgs/${b.org.id}/secrets/CRM_AUTHORIZATION`, { value: CRM_TOKEN })).status).toBe(204);
    expect((await bApi.put(`/api/v1/orgs/${b.org.id}/secrets/DOCS_AUTHORIZATION`, { value: UPSTREAM_TOKEN })).status).toBe(204);
    const { etag } = await exportYaml(b);
    const applied = await bApi.post(`/api/v1/orgs/${b.org.id}/config/apply`, undefined, { ...yaml(text), headers: { ...yaml(text).headers, "if-match": etag } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.discovery).toEqual([{ connector: "docs", ok: true }]);
    expect(applied.body.changes).toContainEqual({ action: "create", kind: "connector", name: "crm" });

    const role = await db().mcpRole.findFirstOrThrow({ where: { orgId: b.org.id, name: "support" }, select: { id: true } });
    await bApi.patch(`/api/v1/workspaces/${b.workspace.id}/members/${b.member.user.id}`, { mcpRoleId: role.id });
    const bServer = await db().mcpServer.findFirstOrThrow({ where: { orgId: b.org.id, name: "Support" }, select: { id: true } });
    const seenA = await surface(serverId, a.member.token);
    expect(seenA.tools.map((x: { name: string }) => x.name).sort()).toEqual(["get_customer", "search_docs"]);
    expect(await surface(bServer.id, b.member.token)).toEqual(seenA);

    const again = await bApi.post(`/api/v1/orgs/${b.org.id}/config/plan`, undefined, yaml(text));
    expect(again.status, again.text).toBe(200);
    expect(again.body.changes).toEqual([]);

    const audit = await db().auditEvent.findFirstOrThrow({ where: { orgId: b.org.id, action: "org.config.apply" }, select: { data: true } });
    expect(JSON.stringify(audit.data)).toContain('"name":"crm"');
    expect(JSON.stringify(audit.data)).not.toContain("s3cret-value");
  });
});

describe("plan and apply", () => {
  it("plans a nested change as an update of its parent with its path, applies nothing, keeps what the document leaves out unless prune", async () => {
    const { t } = await orgA();
    const { doc, etag } = await exportYaml(t);
    const crm = doc.connectors.find((c: { slug: string }) => c.slug === "crm");
    crm.tools[1].description = "Every customer";
    doc.roles = [];
    const a = api(t.owner.token);
    const plan = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, doc);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toEqual([{ action: "update", kind: "connector", name: "crm", fields: [{ path: "tools.list_customers.description", from: "", to: "Every customer" }] }]);
    expect((await exportYaml(t)).etag).toBe(etag);

    const pruned = await a.post(`/api/v1/orgs/${t.org.id}/config/plan?prune=true`, doc);
    expect(pruned.body.changes).toContainEqual({ action: "delete", kind: "role", name: "support" });

    const stale = await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc, { headers: { "if-match": '"stale"' } });
    expect(stale.status).toBe(412);
    const applied = await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc, { headers: { "if-match": etag } });
    expect(applied.status, applied.text).toBe(200);
    const tools = await a.get(`/api/v1/connectors/${(await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" } })).id}`);
    expect(tools.body.tools[1].description).toBe("Every customer");
    expect(await db().mcpRole.count({ where: { orgId: t.org.id } })).toBe(1);
  });

  it("takes a changed secret on the next apply, reorders skills, and leaves audit settings to an owner", async () => {
    const t = await createTenant();
    const a = api(t.owner.token);
    expect((await a.put(`/api/v1/orgs/${t.org.id}/secrets/CRM_TOKEN`, { value: "Bearer first" })).status).toBe(204);
    const doc = {
      connectors: [{ type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com", headers: { Authorization: "${secret:CRM_TOKEN}" } }],
      workspaces: [{ slug: "main", name: "Main", skills: [{ name: "one", content: "First." }, { name: "two", content: "Second." }] }],
    };
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc)).status).toBe(200);
    const stored = async () => openHeaders((await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" } })).secretHeaders);
    expect(await stored()).toEqual({ Authorization: "Bearer first" });

    expect((await a.put(`/api/v1/orgs/${t.org.id}/secrets/CRM_TOKEN`, { value: "Bearer second" })).status).toBe(204);
    expect(await stored()).toEqual({ Authorization: "Bearer first" }); // until the next apply
    doc.workspaces[0].skills.reverse();
    const plan = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, doc);
    expect(plan.text).not.toContain("Bearer");
    // The export keeps the document's own reference; the plan says why it reads the same.
    expect(plan.body.changes).toContainEqual({ action: "update", kind: "connector", name: "crm", fields: [{ path: "headers.Authorization", from: "${secret:CRM_TOKEN}", to: "${secret:CRM_TOKEN}", note: "The secret's value changed since the last apply." }] });
    expect(plan.body.changes).toContainEqual({ action: "update", kind: "skill", name: "main/two", fields: [{ path: "position", from: 1, to: 0 }] });
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc)).status).toBe(200);
    expect(await stored()).toEqual({ Authorization: "Bearer second" });
    expect((await exportYaml(t)).doc.workspaces[0].skills.map((s: { name: string }) => s.name)).toEqual(["two", "one"]);

    const settings = { ...doc, settings: { toolAuditDetail: "arguments" } };
    expect((await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/config/apply`, settings)).status).toBe(403);
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, settings)).status).toBe(200);
    expect((await db().organization.findUniqueOrThrow({ where: { id: t.org.id } })).toolAuditDetail).toBe("arguments");
  });

  it("exports the references a document applied, text around them included, while the connector holds what they resolved to", async () => {
    const t = await createTenant();
    const a = api(t.owner.token);
    expect((await a.put(`/api/v1/orgs/${t.org.id}/secrets/CRM_TOKEN`, { value: "abc123" })).status).toBe(204);
    const doc = { connectors: [{ type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com", headers: { Authorization: "Bearer ${secret:CRM_TOKEN}" } }] };
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc)).status).toBe(200);
    const exported = await exportYaml(t);
    expect(exported.doc.connectors[0].headers).toEqual({ Authorization: "Bearer ${secret:CRM_TOKEN}" });
    expect(exported.text).not.toContain("abc123");
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, undefined, yaml(exported.text))).body.changes).toEqual([]);
    // Changed outside the document (the API, the console): the default reference, as before any apply.
    const id = (await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" } })).id;
    expect((await a.patch(`/api/v1/connectors/${id}`, { config: { headers: { Authorization: "Bearer other" } } })).status).toBe(200);
    expect((await exportYaml(t)).doc.connectors[0].headers).toEqual({ Authorization: "${secret:CRM_AUTHORIZATION}" });
  });

  it("with prune, deletes what the document leaves out, children first, in the one transaction", async () => {
    const t = await createTenant();
    const a = api(INSTANCE_KEY); // the owner's key is one workspace's
    const old = await a.post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Old", slug: "old" });
    expect((await a.post(`/api/v1/workspaces/${old.body.id}/skills`, { name: "gone", content: "Gone." })).status).toBe(201);
    const doc = { workspaces: [{ slug: "main", name: "Main" }] };
    const kept = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, doc);
    expect(kept.body.changes).toEqual([]);
    const applied = await a.post(`/api/v1/orgs/${t.org.id}/config/apply?prune=true`, doc);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.changes).toEqual([
      { action: "delete", kind: "workspace", name: "old" },
      { action: "delete", kind: "skill", name: "old/gone" },
    ]);
    expect(await db().workspace.findMany({ where: { orgId: t.org.id }, select: { slug: true } })).toEqual([{ slug: "main" }]);
  });

  it("gives an API key its own workspace only, as the workspace list does", async () => {
    const t = await createTenant();
    expect((await api(INSTANCE_KEY).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Other", slug: "other" })).status).toBe(201);
    expect((await exportYaml(t)).doc.workspaces.map((w: { slug: string }) => w.slug)).toEqual(["main"]);
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, { workspaces: [{ slug: "other", name: "Mine now" }] });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('"other"');

    const server = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support" });
    const pinned = await createApiKeyFor(t.owner.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: server.body.id });
    expect((await api(pinned.token).get(`/api/v1/orgs/${t.org.id}/config`)).status).toBe(403);
    expect((await api(pinned.token).post(`/api/v1/orgs/${t.org.id}/config/apply`, { roles: [{ name: "x" }] })).status).toBe(403);
  });

  it("a secret is set only by those who may change connectors, never by a key pinned to one server, and each set is audited by name", async () => {
    const t = await createTenant();
    const server = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support" });
    const pinned = await createApiKeyFor(t.owner.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: server.body.id });
    const put = (token: string, value: string) => api(token).put(`/api/v1/orgs/${t.org.id}/secrets/CRM_TOKEN`, { value });
    expect((await put(t.admin.token, "Bearer by-admin")).status).toBe(204);
    expect((await put(pinned.token, "Bearer by-pinned")).status).toBe(403);
    expect((await put(t.member.token, "Bearer by-member")).status).toBe(404); // a member does not manage the organization: it is not theirs to see
    const stored = await db().orgSecret.findFirstOrThrow({ where: { orgId: t.org.id, name: "CRM_TOKEN" } });
    expect(decryptSecret(stored.value)).toBe("Bearer by-admin");
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "org.secret.set" } });
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ name: "CRM_TOKEN" })]);
    expect(JSON.stringify(events)).not.toContain("by-admin");
  });

  it("a document without settings leaves the organization's settings as they are (with --prune too)", async () => {
    const t = await createTenant();
    expect((await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "arguments", auditRetentionDays: 30 })).status).toBe(200);
    for (const prune of ["false", "true"]) {
      const plan = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan?prune=${prune}`, undefined, yaml("version: 1\n"));
      expect(plan.status, plan.text).toBe(200);
      expect(plan.body.changes.filter((c: { kind: string }) => c.kind === "settings")).toEqual([]);
    }
    const changed = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, undefined, yaml("version: 1\nsettings:\n  toolAuditDetail: metadata\n"));
    expect(changed.body.changes).toContainEqual(expect.objectContaining({ kind: "settings" }));
  });

  it("answers 422 with the path of each problem of a bad document", async () => {
    const t = await createTenant();
    const bad = "workspaces:\n  - slug: Not A Slug\n    name: x\n    servers:\n      - name: S\n        connectors: [nowhere]\n";
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, undefined, yaml(bad));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("workspaces.0.slug");
    const ref = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, { workspaces: [{ slug: "main", name: "Main", servers: [{ name: "S", connectors: ["nowhere"] }] }] });
    expect(ref.status).toBe(422);
    expect(ref.body.errors).toEqual([{ path: "workspaces.0.servers.0.connectors.0", message: expect.stringContaining('"nowhere"') }]);
    // A byte order mark before the document (as editors on Windows save it) is no problem, in JSON or YAML.
    for (const [type, text] of [["application/json", '{"version":1}'], ["application/yaml", "version: 1\n"]]) {
      const bom = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, undefined, { raw: `\uFEFF${text}`, headers: { "content-type": type } });
      expect(bom.status, bom.text).toBe(200);
    }
    const plaintext = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, { connectors: [{ type: "http", slug: "x", name: "X", baseUrl: "https://x.example.com", headers: { Authorization: "Bearer raw" } }] });
    expect(plaintext.status).toBe(422);
    expect(plaintext.body.errors[0].path).toBe("connectors.0.headers.Authorization");
  });

  it("refuses a misspelt field at any depth (422 with its path), and the published JSON Schema marks it too", async () => {
    const t = await createTenant();
    const doc = {
      connectors: [{ type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com", tools: [{ name: "get", request: { method: "GET", path: "/x", qeury: { a: "b" } } }] }],
      workspaces: [{ slug: "main", name: "Main", servers: [{ name: "S", conectors: ["crm"] }] }],
    };
    for (const body of [doc, undefined]) {
      const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, body, body ? {} : yaml("workspaces:\n  - slug: main\n    name: Main\n    servers:\n      - name: S\n        conectors: [crm]\n"));
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(body ? ["connectors.0.tools.0.request.qeury", "workspaces.0.servers.0.conectors"] : ["workspaces.0.servers.0.conectors"]);
    }
    // An http connector's document with an mcp connector's field: not a field of its type.
    const misplaced = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, { connectors: [{ type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com", url: "https://mcp.example.com" }] });
    expect(misplaced.body.errors).toEqual([{ path: "connectors.0.url", message: expect.stringContaining('"url" is not a field here') }]);
    expect((await db().connector.count({ where: { orgId: t.org.id } }))).toBe(0);
    const schema = (await request("GET", "/api/v1/config.schema.json", null)).body;
    expect(schema.properties.workspaces.items.properties.servers.items.additionalProperties).toBe(false);
    expect(schema.properties.connectors.items.oneOf.map((c: { additionalProperties?: unknown }) => c.additionalProperties)).toEqual([false, false]);
    // Maps keep taking any key: secret headers by header name.
    expect(schema.properties.connectors.items.oneOf[0].properties.headers.additionalProperties).toMatchObject({ type: "string" });
  });

  it("plans what apply would refuse as apply refuses it: a type change, a connector listed twice, an unset secret, a permission", async () => {
    const t = await createTenant();
    const a = api(t.owner.token);
    const http = { type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com" };
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, { connectors: [http] })).status).toBe(200);
    const retyped = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, { connectors: [{ type: "mcp", slug: "crm", name: "CRM", url: "https://mcp.example.com/mcp" }] });
    expect(retyped.status).toBe(422);
    expect(retyped.body.errors).toEqual([{ path: "connectors.0.type", message: expect.stringContaining('"crm" is an http connector; its type cannot change') }]);
    const twice = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, { connectors: [http], workspaces: [{ slug: "main", name: "Main", servers: [{ name: "S", connectors: ["crm", "crm"] }] }] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ path: "workspaces.0.servers.0.connectors.1", message: expect.stringContaining('"crm" is listed twice') }]);
    const unset = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, { connectors: [{ ...http, headers: { Authorization: "Bearer ${secret:NOT_SET}" } }] });
    expect(unset.status).toBe(422);
    expect(unset.body.errors).toEqual([{ path: "connectors.0.headers.Authorization", message: expect.stringContaining('"NOT_SET" is not set') }]);
    const settings = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/config/plan`, { settings: { toolAuditDetail: "arguments" } });
    expect(settings.status).toBe(403);
    // The same documents change nothing when applied.
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, { connectors: [{ type: "mcp", slug: "crm", name: "CRM", url: "https://mcp.example.com/mcp" }] })).status).toBe(422);
    expect((await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" } })).type).toBe("http");
  });

  it("an mcp connector whose upstream does not answer is saved, and the apply says so in those words", async () => {
    const t = await createTenant();
    const applied = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/config/apply`, { connectors: [{ type: "mcp", slug: "docs", name: "Docs", url: "http://127.0.0.1:1/mcp" }] });
    expect(applied.status, applied.text).toBe(200);
    const id = (await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "docs" } })).id;
    expect(applied.body.discovery).toEqual([{ connector: "docs", ok: false, error: expect.stringContaining(`unreachable`) }]);
    expect(applied.body.discovery[0].error).toContain(`The connector is saved as the document says, with the tools it had (none when new); reload it once the upstream answers (POST /connectors/${id}/reload`);
    expect(applied.body.discovery[0].error).not.toContain("was not changed");
  });

  it("carries a server's tool overrides: applied as the overrides API writes them, exported, planned by tool, checked like that API", async () => {
    const t = await createTenant();
    const a = api(t.owner.token);
    const crm = { type: "http", slug: "crm", name: "CRM", baseUrl: "https://crm.example.com", tools: [{ name: "get_customer", request: { method: "GET", path: "/c/{id}" } }, { name: "list_customers", request: { method: "GET", path: "/c" } }] };
    const curated = [{ connector: "crm", tool: "get_customer", name: "find_customer", description: "Find one customer." }, { connector: "crm", tool: "list_customers", hidden: true }];
    const doc = { connectors: [crm], workspaces: [{ slug: "main", name: "Main", servers: [{ name: "Support", connectors: ["crm"], tools: curated }] }] };
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, doc)).status).toBe(200);
    const server = await db().mcpServer.findFirstOrThrow({ where: { orgId: t.org.id, name: "Support" }, select: { id: true } });
    const connectorId = (await db().connector.findFirstOrThrow({ where: { orgId: t.org.id, slug: "crm" } })).id;
    expect((await a.get(`/api/v1/servers/${server.id}/tool-overrides`)).body.items).toEqual([
      { connectorId, tool: "get_customer", name: "find_customer", description: "Find one customer.", missing: false },
      { connectorId, tool: "list_customers", hidden: true, missing: false },
    ]);
    const client = await connectV1(`${app.origin}/mcp/${server.id}`, t.owner.token);
    expect((await client.client.listTools()).tools.map((x) => [x.name, x.description])).toEqual([["find_customer", "Find one customer."]]);
    await client.close();
    expect((await exportYaml(t)).doc.workspaces[0].servers[0].tools).toEqual(curated);
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, doc)).body.changes).toEqual([]);
    const redescribed = structuredClone(doc);
    redescribed.workspaces[0].servers[0].tools[0].description = "Find a customer by id.";
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, redescribed)).body.changes).toEqual([
      { action: "update", kind: "server", name: "main/Support", fields: [{ path: "tools.crm/get_customer.description", from: "Find one customer.", to: "Find a customer by id." }] },
    ]);
    // The overrides API's refusals, with the document's paths.
    const withServer = (tools: unknown[]) => ({ connectors: [crm], workspaces: [{ slug: "main", name: "Main", servers: [{ name: "Support", connectors: ["crm"], tools }] }] });
    const elsewhere = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, withServer([{ connector: "docs", tool: "x" }]));
    expect(elsewhere.body.errors).toEqual([{ path: "workspaces.0.servers.0.tools.0.connector", message: '"docs" is not one of this server\'s connectors.' }]);
    const clash = await a.post(`/api/v1/orgs/${t.org.id}/config/plan`, withServer([{ connector: "crm", tool: "get_customer", name: "list_customers" }]));
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([{ path: "workspaces.0.servers.0.tools.0.name", message: expect.stringContaining('"list_customers" of crm/get_customer collides with crm/list_customers') }]);
    // Left out, a server has none.
    expect((await a.post(`/api/v1/orgs/${t.org.id}/config/apply`, withServer([]))).status).toBe(200);
    expect((await a.get(`/api/v1/servers/${server.id}/tool-overrides`)).body.items).toEqual([]);
  });

  it("keeps secrets write-only and another org's config not found", async () => {
    const t = await createTenant();
    const other = await createTenant();
    expect((await api(other.owner.token).get(`/api/v1/orgs/${t.org.id}/config`)).status).toBe(404);
    expect((await api(other.owner.token).put(`/api/v1/orgs/${t.org.id}/secrets/X`, { value: "v" })).status).toBe(404);
    expect((await request("GET", `/api/v1/orgs/${t.org.id}/secrets/X`, INSTANCE_KEY)).status).toBe(405);
    // A name no secret can have is said so, not "not found".
    const badName = await api(t.owner.token).put(`/api/v1/orgs/${t.org.id}/secrets/9lives`, { value: "v" });
    expect(badName.status).toBe(422);
    expect(badName.body.errors).toEqual([{ path: "name", message: expect.stringContaining('"9lives" cannot be a secret\'s name') }]);
    expect(await db().orgSecret.count({ where: { orgId: t.org.id } })).toBe(0);
  });
});

describe("GET /config.schema.json", () => {
  it("publishes the document's JSON Schema", async () => {
    const res = await request("GET", "/api/v1/config.schema.json", null);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.properties)).toEqual(expect.arrayContaining(["settings", "workspaces", "connectors", "roles"]));
  });
});
