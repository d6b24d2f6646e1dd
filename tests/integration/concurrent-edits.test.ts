import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTenant, makeConnector, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { lockRow } from "@/lib/db/lock-row";

/**
 * "Two admins replacing the same set at once must leave one of the submitted sets, never their
 * union", and If-Match: real parallel requests over real HTTP through the route handlers.
 */

let server: RouteServer;
beforeAll(async () => {
  useTempFilesDir();
  server = await startRouteServer();
});
afterAll(() => server.close());

interface Answer {
  status: number;
  etag: string | null;
  body: any;
}

async function send(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get("etag"), body: text ? JSON.parse(text) : null };
}

const N = 30;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function connectorIn(t: Tenant, type: "http" | "mcp" = "mcp"): Promise<string> {
  const config = type === "http" ? { baseUrl: "http://127.0.0.1:9" } : { url: "http://127.0.0.1:9/mcp" };
  return (await makeConnector(t, { type, config })).id;
}

/** N parallel writes; every one succeeds (last write wins) and the result is exactly one of them. */
async function replaceConcurrently(method: string, path: string, token: string, bodyOf: (i: number) => unknown): Promise<Answer[]> {
  const answers = await Promise.all(range(N).map((i) => send(method, path, token, bodyOf(i))));
  expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body?.detail}`)).toEqual([]);
  return answers;
}

describe("replacing a whole set is atomic under concurrent writers", () => {
  it(`${N} concurrent replacements of a role's tools leave exactly one submitted set`, async () => {
    const t = await createTenant();
    const connectorId = await connectorIn(t);
    const role = await send("POST", `/api/v1/orgs/${t.org.id}/roles`, t.admin.token, { name: "Ops", tools: [] });
    await replaceConcurrently("PATCH", `/api/v1/roles/${role.body.id}`, t.admin.token, (i) => ({ tools: [{ connectorId, tool: `tool_${i}` }] }));
    const after = await send("GET", `/api/v1/roles/${role.body.id}`, t.admin.token);
    expect(after.body.tools).toHaveLength(1);
    expect(after.body.tools[0].tool).toMatch(/^tool_\d+$/);
    expect(await db().mcpRoleTool.count({ where: { roleId: role.body.id, orgId: t.org.id } })).toBe(1);
  });
});

describe("the row lock, not only this process's queue, serializes replacements", () => {
  it("a PATCH waits for another process's transaction holding the role's lock, then replaces what it committed", async () => {
    const t = await createTenant();
    const connectorId = await connectorIn(t);
    const role = await send("POST", `/api/v1/orgs/${t.org.id}/roles`, t.admin.token, { name: "Ops", tools: [] });
    const where = { roleId: role.body.id, orgId: t.org.id };
    expect((await send("PATCH", `/api/v1/roles/${role.body.id}`, t.admin.token, { name: "Ops" })).status).toBe(200); // route loaded: timing below is the lock's
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    let committedAt = 0;
    // Another instance replacing the same set: delete-then-insert under the lock, slowly.
    const other = db().$transaction(async (tx) => {
      expect(await lockRow(tx, "mcp_roles", role.body.id, t.org.id)).toBe(true);
      locked();
      await tx.mcpRoleTool.deleteMany({ where });
      await tx.mcpRoleTool.create({ data: { ...where, connectorId, toolName: "from_the_other_instance" } });
      await new Promise((r) => setTimeout(r, 1500));
      committedAt = Date.now();
    });
    await lockTaken;
    const mine = await send("PATCH", `/api/v1/roles/${role.body.id}`, t.admin.token, { tools: [{ connectorId, tool: "mine" }] });
    const answeredAt = Date.now();
    await other;
    expect(mine.status).toBe(200);
    expect(answeredAt).toBeGreaterThanOrEqual(committedAt);
    expect((await db().mcpRoleTool.findMany({ where, select: { toolName: true } })).map((r) => r.toolName)).toEqual(["mine"]);
  });
});

describe("replacing a connector's or server's set is atomic under concurrent writers", () => {
  it(`${N} concurrent replacements of an http connector's tools leave exactly one submitted set`, async () => {
    const t = await createTenant();
    const connectorId = await connectorIn(t, "http");
    const tool = (i: number) => ({ name: `tool_${i}`, request: { method: "GET", path: `/t/${i}` } });
    await replaceConcurrently("PATCH", `/api/v1/connectors/${connectorId}`, t.admin.token, (i) => ({ tools: [tool(i), tool(i + 100)] }));
    const after = await send("GET", `/api/v1/connectors/${connectorId}`, t.admin.token);
    const names = after.body.tools.map((x: { name: string }) => x.name);
    expect(names).toHaveLength(2);
    const [i] = names[0].match(/\d+/).map(Number);
    expect(names).toEqual([`tool_${i}`, `tool_${i + 100}`]);
  });

  it(`${N} concurrent PUT /servers/{id}/connectors all succeed and leave exactly one submitted set`, async () => {
    const t = await createTenant();
    const connectors = await Promise.all(range(4).map(() => connectorIn(t)));
    const created = await send("POST", `/api/v1/workspaces/${t.workspace.id}/servers`, t.admin.token, { name: "Main" });
    // Each writer submits two of the four connectors, in its own order.
    const setOf = (i: number) => [connectors[i % 4], connectors[(i + 1 + (i % 3)) % 4]];
    await replaceConcurrently("PUT", `/api/v1/servers/${created.body.id}/connectors`, t.admin.token, (i) => ({ connectorIds: setOf(i) }));
    const after = await send("GET", `/api/v1/servers/${created.body.id}`, t.admin.token);
    expect(range(N).map((i) => JSON.stringify(setOf(i)))).toContain(JSON.stringify(after.body.connectorIds));
    expect(await db().mcpServerConnector.count({ where: { serverId: created.body.id, orgId: t.org.id } })).toBe(2);
  });

  it(`${N} concurrent PUT /connectors/{id}/graph leave exactly one submitted layer`, async () => {
    const t = await createTenant({ knowledgeGraphEnabled: true });
    const connectorId = await connectorIn(t);
    const layer = (i: number) => ({
      entities: [{ key: `a${i}`, label: `A ${i}` }, { key: `b${i}`, label: `B ${i}` }],
      relations: [{ from: `a${i}`, to: `b${i}`, kind: "has" }],
    });
    await replaceConcurrently("PUT", `/api/v1/connectors/${connectorId}/graph`, t.admin.token, layer);
    const after = await send("GET", `/api/v1/connectors/${connectorId}/graph`, t.admin.token);
    expect(after.body.entities).toHaveLength(2);
    const i = Number(after.body.entities[0].key.slice(1));
    expect(after.body.entities.map((e: { key: string }) => e.key)).toEqual([`a${i}`, `b${i}`]);
    expect(after.body.relations).toEqual([{ from: `a${i}`, to: `b${i}`, kind: "has", description: null }]);
  });
});

describe("optimistic concurrency: ETag and If-Match", () => {
  async function roleOf(t: Tenant): Promise<{ id: string; etag: string; connectorId: string }> {
    const connectorId = await connectorIn(t);
    const created = await send("POST", `/api/v1/orgs/${t.org.id}/roles`, t.admin.token, { name: `R ${uniqueSuffix()}`, tools: [{ connectorId, tool: "a" }] });
    expect(created.etag).toMatch(/^"[\w-]+"$/);
    const read = await send("GET", `/api/v1/roles/${created.body.id}`, t.admin.token);
    expect(read.etag).toBe(created.etag);
    return { id: created.body.id, etag: read.etag!, connectorId };
  }

  it("a write with a stale If-Match is 412 problem+json and changes nothing; the current tag succeeds with a new tag", async () => {
    const t = await createTenant();
    const role = await roleOf(t);
    const first = await send("PATCH", `/api/v1/roles/${role.id}`, t.admin.token, { name: "First" }, { "if-match": role.etag });
    expect(first.status).toBe(200);
    expect(first.etag).not.toBe(role.etag);
    expect((await send("GET", `/api/v1/roles/${role.id}`, t.admin.token)).etag).toBe(first.etag);

    const stale = await send("PATCH", `/api/v1/roles/${role.id}`, t.admin.token, { name: "Second", tools: [] }, { "if-match": role.etag });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ status: 412, title: "Precondition failed", detail: expect.stringMatching(/somebody else changed/i) });
    const after = await send("GET", `/api/v1/roles/${role.id}`, t.admin.token);
    expect(after.body).toMatchObject({ name: "First", tools: [{ connectorId: role.connectorId, tool: "a" }] });
    expect(after.etag).toBe(first.etag);

    expect((await send("DELETE", `/api/v1/roles/${role.id}`, t.admin.token, undefined, { "if-match": role.etag })).status).toBe(412);
    expect((await send("DELETE", `/api/v1/roles/${role.id}`, t.admin.token, undefined, { "if-match": first.etag! })).status).toBe(204);
    expect((await send("GET", `/api/v1/roles/${role.id}`, t.admin.token)).status).toBe(404);
  });

  it("If-Match: * matches any existing object; no If-Match is last write wins", async () => {
    const t = await createTenant();
    const role = await roleOf(t);
    expect((await send("PATCH", `/api/v1/roles/${role.id}`, t.admin.token, { name: "Star" }, { "if-match": "*" })).status).toBe(200);
    expect((await send("PATCH", `/api/v1/roles/${role.id}`, t.admin.token, { name: "Blind" })).status).toBe(200);
    expect((await send("PATCH", "/api/v1/roles/missing-role", t.admin.token, { name: "X" }, { "if-match": "*" })).status).toBe(404);
  });

  it(`${N} concurrent PATCHes with the same If-Match: exactly one succeeds, the rest are 412`, async () => {
    const t = await createTenant();
    const role = await roleOf(t);
    const answers = await Promise.all(
      range(N).map((i) => send("PATCH", `/api/v1/roles/${role.id}`, t.admin.token, { tools: [{ connectorId: role.connectorId, tool: `t${i}` }] }, { "if-match": role.etag })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...range(N - 1).map(() => 412)]);
    const winner = answers.find((a) => a.status === 200)!;
    const after = await send("GET", `/api/v1/roles/${role.id}`, t.admin.token);
    expect(after.body.tools).toEqual(winner.body.tools);
    expect(after.etag).toBe(winner.etag);
  });

  it("the graph, a connector and a server carry tags that follow their set replacements", async () => {
    const t = await createTenant({ knowledgeGraphEnabled: true });
    const connectorId = await connectorIn(t, "http");
    const graph = await send("GET", `/api/v1/connectors/${connectorId}/graph`, t.admin.token);
    const put = await send("PUT", `/api/v1/connectors/${connectorId}/graph`, t.admin.token, { entities: [{ key: "a", label: "A" }], relations: [] }, { "if-match": graph.etag! });
    expect(put.status).toBe(200);
    expect((await send("PUT", `/api/v1/connectors/${connectorId}/graph`, t.admin.token, { entities: [], relations: [] }, { "if-match": graph.etag! })).status).toBe(412);
    expect((await send("GET", `/api/v1/connectors/${connectorId}/graph`, t.admin.token)).body.entities).toHaveLength(1);

    const connector = await send("GET", `/api/v1/connectors/${connectorId}`, t.admin.token);
    const tools = [{ name: "x", request: { method: "GET", path: "/x" } }];
    const patched = await send("PATCH", `/api/v1/connectors/${connectorId}`, t.admin.token, { tools }, { "if-match": connector.etag! });
    expect(patched.status).toBe(200);
    expect(patched.etag).not.toBe(connector.etag);
    expect((await send("PATCH", `/api/v1/connectors/${connectorId}`, t.admin.token, { tools: [] }, { "if-match": connector.etag! })).status).toBe(412);

    const created = await send("POST", `/api/v1/workspaces/${t.workspace.id}/servers`, t.admin.token, { name: "S" });
    const set = await send("PUT", `/api/v1/servers/${created.body.id}/connectors`, t.admin.token, { connectorIds: [connectorId] }, { "if-match": created.etag! });
    expect(set.status).toBe(200);
    expect(set.etag).not.toBe(created.etag);
    expect((await send("PATCH", `/api/v1/servers/${created.body.id}`, t.admin.token, { name: "Late" }, { "if-match": created.etag! })).status).toBe(412);
    expect((await send("GET", `/api/v1/servers/${created.body.id}`, t.admin.token)).body).toMatchObject({ name: "S", connectorIds: [connectorId] });
  });
});

describe("If-Match on the other objects", () => {
  const cases: Array<[string, (t: Tenant) => Promise<string>, Record<string, unknown>]> = [
    ["organization", async (t) => `/api/v1/orgs/${t.org.id}`, { name: "Renamed org" }],
    ["workspace", async (t) => `/api/v1/workspaces/${t.workspace.id}`, { name: "Renamed workspace" }],
    [
      "skill",
      async (t) => `/api/v1/skills/${(await send("POST", `/api/v1/workspaces/${t.workspace.id}/skills`, t.admin.token, { name: "Tone", content: "Be brief." })).body.id}`,
      { content: "Be thorough." },
    ],
  ];
  it.each(cases)("%s: GET carries an ETag, a stale If-Match is 412 and changes nothing, the current one succeeds", async (_, pathOf, change) => {
    const t = await createTenant();
    const path = await pathOf(t);
    const before = await send("GET", path, t.owner.token);
    expect(before.etag).toMatch(/^"[\w-]+"$/);
    const ok = await send("PATCH", path, t.owner.token, change, { "if-match": before.etag! });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject(change);
    const stale = await send("PATCH", path, t.owner.token, { name: "Too late" }, { "if-match": before.etag! });
    expect(stale.status).toBe(412);
    const now = await send("GET", path, t.owner.token);
    expect(now.body).toEqual(ok.body);
    expect(now.etag).toBe(ok.etag);
    expect((await send("DELETE", path, t.owner.token, undefined, { "if-match": before.etag! })).status).toBe(412);
    expect((await send("GET", path, t.owner.token)).status).toBe(200);
  });
});

describe("If-Match on files and stored resources", () => {
  it("a file: its GET tag guards PATCH and DELETE", async () => {
    const t = await createTenant();
    const uploaded = await upload(t.member.token, t.workspace.id, { bytes: "hello", name: "notes.txt" });
    expect(uploaded.status).toBe(201);
    const path = `/api/v1/files/${uploaded.body.id}`;
    const before = await send("GET", path, t.member.token);
    expect(before.etag).toBe(uploaded.headers.get("etag"));
    const ok = await send("PATCH", path, t.member.token, { tags: ["a"] }, { "if-match": before.etag! });
    expect(ok.status).toBe(200);
    expect((await send("PATCH", path, t.member.token, { name: "late.txt" }, { "if-match": before.etag! })).status).toBe(412);
    expect((await send("DELETE", path, t.member.token, undefined, { "if-match": before.etag! })).status).toBe(412);
    expect((await send("GET", path, t.member.token)).body).toMatchObject({ name: "notes.txt", tags: ["a"] });
    expect((await send("DELETE", path, t.member.token, undefined, { "if-match": ok.etag! })).status).toBe(204);
  });

  it("a stored resource: the tag its POST or PATCH answered guards the next write", async () => {
    const t = await createTenant();
    const connectorId = await connectorIn(t);
    const created = await send("POST", `/api/v1/connectors/${connectorId}/resources`, t.admin.token, { uri: "crm://schema", name: "Schema" });
    expect(created.status).toBe(201);
    const path = `/api/v1/resources/${created.body.id}`;
    const renamed = await send("PATCH", path, t.admin.token, { name: "CRM schema" }, { "if-match": created.etag! });
    expect(renamed.status).toBe(200);
    expect((await send("PATCH", path, t.admin.token, { name: "Late" }, { "if-match": created.etag! })).status).toBe(412);
    expect((await send("DELETE", path, t.admin.token, undefined, { "if-match": created.etag! })).status).toBe(412);
    expect((await send("DELETE", path, t.admin.token, undefined, { "if-match": renamed.etag! })).status).toBe(204);
  });
});
