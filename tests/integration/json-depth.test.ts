import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { CreateConnectorBody } from "@/lib/connectors/schemas";
import { CreateStoredResourceBody } from "@/lib/resources/schemas";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";

/**
 * Free-form JSON (a stored resource's fetchConfig, a tool's inputSchema) used to reach Prisma
 * at any depth: a few thousand levels overflowed the stack and the caller got a 500. JSON is
 * now refused past MAX_JSON_DEPTH (64) levels with a 422, wherever it comes from.
 */

const nestedArrays = (levels: number) => "[".repeat(levels) + '"x"' + "]".repeat(levels);
const nestedObjects = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) value = { type: "object", properties: { inner: value } };
  return value;
};

async function httpConnector() {
  const t = await createTenant();
  const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "CRM", type: "http", config: { baseUrl: "http://127.0.0.1:9" } });
  expect(created.status).toBe(201);
  return { t, connectorId: created.body.id as string };
}

const ups: Upstream[] = [];
afterEach(async () => {
  await Promise.all(ups.splice(0).map((u) => u.close()));
});

describe("deeply nested JSON is a 422, never a 500", () => {
  it("a request body nested thousands of levels deep (fetchConfig) is refused and nothing is stored", async () => {
    const { t, connectorId } = await httpConnector();
    const raw = `{"uri":"crm://deep","name":"Deep","fetchConfig":{"deep":${nestedArrays(5000)}}}`;
    const res = await api(t.admin.token).post(`/api/v1/connectors/${connectorId}/resources`, undefined, { raw, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "(body)", message: "The JSON is nested more than 64 levels deep." }]);
    expect(await db().storedResource.count({ where: { connectorId } })).toBe(0);
  });

  it("a tool input schema nested too deeply is refused; an ordinary nested one is stored", async () => {
    const { t, connectorId } = await httpConnector();
    const tool = (inputSchema: unknown) => ({ tools: [{ name: "get", request: { method: "GET", path: "/x" }, inputSchema }] });
    const deep = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, tool(nestedObjects(2000)));
    expect(deep.status).toBe(422);
    const fine = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, tool(nestedObjects(10)));
    expect(fine.status).toBe(200);
    expect(fine.body.tools[0].inputSchema).toEqual(nestedObjects(10));
  });

  it("the schemas refuse it too (server actions parse with them, without the JSON body reader)", () => {
    const resource = CreateStoredResourceBody.safeParse({ uri: "crm://x", name: "X", fetchConfig: { deep: JSON.parse(nestedArrays(100)) } });
    expect(resource.success).toBe(false);
    expect(CreateStoredResourceBody.safeParse({ uri: "crm://x", name: "X", fetchConfig: { text: "hello", meta: { a: [1, 2] } } }).success).toBe(true);
    const connector = CreateConnectorBody.safeParse({
      name: "C",
      type: "http",
      config: { baseUrl: "http://127.0.0.1:9" },
      tools: [{ name: "t", request: { method: "GET", path: "/" }, inputSchema: nestedObjects(100) }],
    });
    expect(connector.success).toBe(false);
  });

  it("an upstream MCP tool whose input schema is nested too deeply is skipped; the connector is still created", async () => {
    const up = await startMcpUpstream({ tools: [{ name: "ok", inputSchema: { properties: { q: { type: "string" } } } }, { name: "deep", inputSchema: nestedObjects(100) }] });
    ups.push(up);
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Docs", type: "mcp", config: { url: up.url } });
    expect(created.status).toBe(201);
    expect(created.body.tools.map((x: { name: string }) => x.name)).toEqual(["ok"]);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "connector.create" } });
    expect((audit.data as { skippedTools: string[] }).skippedTools).toEqual(["deep"]);
  });
});
