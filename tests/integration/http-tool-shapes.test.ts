import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2 } from "@/tests/helpers/mcp-clients";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 26 points 3 and 4: http tools say what they do (annotations from the method, an
 * outputSchema from the OpenAPI import) and their answers are shaped by `response.select`.
 * A real HTTP API, the app's routes over real HTTP, and the v2 SDK client, whose callTool
 * refuses structuredContent that does not match the listed outputSchema.
 */

const document = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "CRM", version: "1" },
  paths: {
    "/customers": {
      get: { operationId: "list_customers", responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Customer" } } } } } } },
    },
    "/customers/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "get_customer", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Customer" } } } } } },
      put: {
        operationId: "put_customer",
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Customer" } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Customer" } } } } },
      },
      delete: { operationId: "delete_customer", responses: { "204": { description: "gone" } } },
    },
  },
  components: {
    schemas: {
      Customer: {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string", nullable: true }, tier: { $ref: "#/components/schemas/Tier" } },
      },
      Tier: { type: "string", enum: ["gold", "silver"] },
    },
  },
});

const ADA = { id: "c1", name: "Ada", email: "ada@example.com", tier: "gold", notes: "x".repeat(50) };
const BOB = { id: "c2", name: "Bob", email: null, tier: "silver", notes: "y".repeat(50) };

let app: RouteServer;
let upstream: HttpApiStub;
let t: Tenant;
let serverId: string;
let imported: Array<{ tool: Record<string, unknown> }>;

const json = (body: unknown) => (_req: unknown, res: import("node:http").ServerResponse) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

beforeAll(async () => {
  app = await startRouteServer();
  upstream = await startHttpApi();
  upstream.route("GET", "/customers", json([ADA, BOB]));
  upstream.route("GET", "/customers/c1", json(ADA));
  upstream.route("GET", "/customers/c2", json({ ...BOB, id: 2 })); // breaks its own schema
  upstream.route("PUT", "/customers/c1", json(ADA));
  upstream.route("DELETE", "/customers/c1", (_req, res) => res.writeHead(204).end());
  t = await createTenant();
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors/import-openapi`, { document });
  expect(res.status, res.text).toBe(200);
  imported = res.body.operations;
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "CRM", type: "http", config: { baseUrl: upstream.origin }, tools: imported.map((o) => o.tool) });
  expect(connector.status, connector.text).toBe(201);
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", connectorIds: [connector.body.id] });
  serverId = server.body.id;
});
afterAll(async () => {
  await Promise.all([app.close(), upstream.close()]);
});

const url = () => `${app.origin}/mcp/${serverId}`;

async function withClient<T>(run: (client: Awaited<ReturnType<typeof connectV2>>["client"]) => Promise<T>): Promise<T> {
  const v2 = await connectV2(url(), t.admin.token);
  try {
    await v2.client.listTools(); // the client checks structuredContent against the listed outputSchema
    return await run(v2.client);
  } finally {
    await v2.close();
  }
}

describe("OpenAPI import: annotations from the method, outputSchema from the 2xx answer", () => {
  it("the import writes each method's annotations and resolves refs into the output schema (an array wrapped as { items })", () => {
    const byName = new Map(imported.map((o) => [o.tool.name, o.tool]));
    expect(byName.get("get_customer")).toMatchObject({ annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true } });
    expect(byName.get("put_customer")).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } });
    expect(byName.get("delete_customer")).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true } });
    const customer = (byName.get("get_customer")!.outputSchema as { properties: Record<string, unknown> }).properties;
    expect(customer.tier).toEqual({ type: "string", enum: ["gold", "silver"] });
    expect(customer.email).toEqual({ type: ["string", "null"] });
    expect(byName.get("list_customers")!.outputSchema).toMatchObject({ type: "object", required: ["items"], properties: { items: { type: "array", items: { type: "object", required: ["id", "name"] } } } });
    expect(byName.get("delete_customer")!.outputSchema).toBeUndefined();
  });

  it("tools/list carries them in both eras", async () => {
    const v1 = await connectV1(url(), t.admin.token);
    const v2 = await connectV2(url(), t.admin.token);
    try {
      for (const { tools } of [await v1.client.listTools(), await v2.client.listTools()]) {
        const byName = new Map(tools.map((tool) => [tool.name, tool]));
        expect(byName.get("get_customer")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
        expect(byName.get("put_customer")!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
        expect(byName.get("delete_customer")!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
        expect(byName.get("list_customers")!.outputSchema).toMatchObject({ type: "object", properties: { items: { type: "array" } } });
      }
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  it("structuredContent passes the SDK client's own output-schema check; an array answer comes as { items }", async () => {
    await withClient(async (client) => {
      const one = await client.callTool({ name: "get_customer", arguments: { id: "c1" } });
      expect(one.isError).toBeFalsy();
      expect(one.structuredContent).toEqual(ADA);
      const list = await client.callTool({ name: "list_customers", arguments: {} });
      expect(list.structuredContent).toEqual({ items: [ADA, BOB] });
      const put = await client.callTool({ name: "put_customer", arguments: { id: "c1", name: "Ada" } });
      expect(put.structuredContent).toEqual(ADA);
      const gone = await client.callTool({ name: "delete_customer", arguments: { id: "c1" } });
      expect(gone.isError).toBeFalsy();
    });
  });

  it("an answer that breaks its schema is an isError result naming the mismatch (the client is not made to refuse it)", async () => {
    await withClient(async (client) => {
      const bad = await client.callTool({ name: "get_customer", arguments: { id: "c2" } });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toBeUndefined();
      expect((bad.content as Array<{ text: string }>)[0].text).toMatch(/does not match the tool's output schema: \/id must be string/);
    });
  });
});

describe("response.select shapes the answer before content and structuredContent", () => {
  it("with a select and a schema of the selected shape, the client's check passes; a tool without select answers as before", async () => {
    const tools = imported.map((o) => o.tool);
    const shaped = tools.map((tool) =>
      tool.name === "list_customers"
        ? { ...tool, response: { select: "[].{id: id, name: name}" }, outputSchema: { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, additionalProperties: false } } }, required: ["items"] } }
        : tool.name === "get_customer"
          ? { ...tool, response: { select: "{name: name, tier: tier}" }, outputSchema: undefined }
          : tool,
    );
    const connectorId = (await api(t.admin.token).get(`/api/v1/servers/${serverId}`)).body.connectorIds[0];
    const patched = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { tools: shaped });
    expect(patched.status, patched.text).toBe(200);
    await withClient(async (client) => {
      const list = await client.callTool({ name: "list_customers", arguments: {} });
      expect(list.structuredContent).toEqual({ items: [{ id: "c1", name: "Ada" }, { id: "c2", name: "Bob" }] });
      expect(JSON.parse((list.content as Array<{ text: string }>)[0].text)).toEqual([{ id: "c1", name: "Ada" }, { id: "c2", name: "Bob" }]);
      const one = await client.callTool({ name: "get_customer", arguments: { id: "c1" } });
      expect(one.structuredContent).toEqual({ name: "Ada", tier: "gold" });
      const put = await client.callTool({ name: "put_customer", arguments: { id: "c1", name: "Ada" } });
      expect(put.structuredContent).toEqual(ADA);
    });
  });

  it("a select that is not JMESPath, or an output schema that is not an object schema, is a 422 naming the field", async () => {
    const connectorId = (await api(t.admin.token).get(`/api/v1/servers/${serverId}`)).body.connectorIds[0];
    const base = { name: "x", request: { method: "GET", path: "/x" } };
    const badSelect = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { tools: [{ ...base, response: { select: "items[?" } }] });
    expect(badSelect.status).toBe(422);
    expect(badSelect.body.errors[0]).toMatchObject({ path: "tools.0.response.select", message: expect.stringContaining("JMESPath") });
    const badSchema = await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { tools: [{ ...base, outputSchema: { type: "array" } }] });
    expect(badSchema.status).toBe(422);
    expect(badSchema.body.errors[0]).toMatchObject({ path: "tools.0.outputSchema.type" });
  });

  it("a tool defined by hand carries its own annotations (replacing the method's) and outputSchema", async () => {
    const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: "Search",
      type: "http",
      config: { baseUrl: upstream.origin },
      tools: [{ name: "search", request: { method: "POST", path: "/customers/c1" }, annotations: { readOnlyHint: true, openWorldHint: true }, outputSchema: { type: "object", properties: { id: { type: "string" } } } }],
    });
    expect(connector.status, connector.text).toBe(201);
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Search", connectorIds: [connector.body.id] });
    const v2 = await connectV2(`${app.origin}/mcp/${server.body.id}`, t.admin.token);
    try {
      const [tool] = (await v2.client.listTools()).tools;
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
      expect(tool.outputSchema).toEqual({ type: "object", properties: { id: { type: "string" } } });
    } finally {
      await v2.close();
    }
  });
});
