import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTenant, uniqueSuffix, type Tenant } from "@/tests/helpers/factories";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * "Two admins replacing the same set at once must leave one of the submitted sets, never their
 * union", and If-Match: real parallel requests over real HTTP through the route handlers.
 */

let server: RouteServer;
beforeAll(async () => {
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
  const slug = `c-${uniqueSuffix()}`;
  const config = type === "http" ? { baseUrl: "http://127.0.0.1:9" } : { url: "http://127.0.0.1:9/mcp" };
  return (await db().connector.create({ data: { orgId: t.org.id, name: slug, slug, type, config }, select: { id: true } })).id;
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
