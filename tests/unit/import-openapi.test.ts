import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { CreateConnectorBody } from "@/lib/connectors/schemas";
import { OpenApiImportError, importOpenApi, toolNameFor } from "@/lib/connectors/import-openapi";

const CRM_YAML = `
openapi: 3.0.3
info: { title: CRM, version: "2.1" }
servers:
  - url: https://{region}.api.example.com/v1/
    variables:
      region: { default: eu }
paths:
  /customers/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string }, description: Customer id }
    get:
      operationId: getCustomer
      summary: Get a customer
      description: Returns one customer by id.
      parameters:
        - { name: expand, in: query, schema: { type: boolean } }
        - { name: X-Trace, in: header, schema: { type: string } }
      responses: { "200": { description: ok } }
    delete:
      operationId: delete customer!
      responses: { "204": { description: gone } }
  /customers:
    post:
      operationId: createCustomer
      parameters:
        - { name: dryRun, in: query, schema: { type: boolean } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NewCustomer" }
      responses: { "201": { description: created } }
    head:
      responses: { "200": { description: ok } }
  /notes:
    put:
      requestBody:
        content:
          text/plain: { schema: { type: string } }
      responses: { "200": { description: ok } }
components:
  schemas:
    NewCustomer:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          required: [email]
          properties:
            email: { type: string, format: email }
            age: { type: integer, format: int32, nullable: true, example: 42 }
    Base:
      type: object
      required: [name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
`;

describe("importOpenApi", () => {
  it("turns each operation into a tool with a dereferenced input schema (YAML)", async () => {
    const result = await importOpenApi(CRM_YAML);
    expect(result).toMatchObject({ title: "CRM", version: "2.1", openapiVersion: "3.0.3", baseUrl: "https://eu.api.example.com/v1" });
    const get = result.operations.find((o) => o.key === "GET /customers/{id}")!;
    expect(get.tool).toEqual({
      name: "getCustomer",
      title: "Get a customer",
      description: "Returns one customer by id.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", description: "Customer id" }, expand: { type: "boolean" } },
        required: ["id"],
      },
      request: { method: "GET", path: "/customers/{id}" },
      // What the method says the tool does (issue 26), written out for the importer to see.
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    });
    expect(get.warnings.join(" ")).toContain('header parameter "X-Trace"');
  });

  it("keeps the summary as the title and the description apart; a summary alone is the description too; neither: none", async () => {
    const doc = (summary: string | undefined, description: string | undefined) =>
      JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/a": { get: { operationId: "a", summary, description, responses: { "200": { description: "ok" } } } } } });
    const toolOf = async (summary?: string, description?: string) => (await importOpenApi(doc(summary, description))).operations[0].tool;
    expect(await toolOf("List things", "Every thing, newest first.")).toMatchObject({ title: "List things", description: "Every thing, newest first." });
    expect(await toolOf("List things", undefined)).toMatchObject({ title: "List things", description: "List things" });
    const onlyDescription = await toolOf(undefined, "Every thing.");
    expect(onlyDescription.title).toBeUndefined();
    expect(onlyDescription.description).toBe("Every thing.");
    const neither = await toolOf(undefined, undefined);
    expect(neither.title).toBeUndefined();
    expect(neither.description).toBeUndefined();
    // A summary longer than a title may be is cut to 200 characters, not refused.
    expect((await toolOf("s".repeat(500), "d")).title).toHaveLength(200);
  });

  it("merges a JSON object body (allOf, required, nullable, read-only left out) into the arguments", async () => {
    const post = (await importOpenApi(CRM_YAML)).operations.find((o) => o.key === "POST /customers")!;
    expect(post.tool.inputSchema).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        email: { type: "string", format: "email" },
        age: { type: ["integer", "null"], examples: [42] },
      },
      required: ["name", "email"],
    });
    expect(post.tool.request).toEqual({ method: "POST", path: "/customers" });
    expect(post.warnings.join(" ")).toContain('query parameter "dryRun" is left out');
  });

  it("makes operationIds into valid tool names and skips what http tools cannot do", async () => {
    const result = await importOpenApi(CRM_YAML);
    expect(result.operations.find((o) => o.key === "DELETE /customers/{id}")!.tool.name).toBe("delete_customer");
    expect(result.operations.find((o) => o.key === "PUT /notes")!.warnings.join(" ")).toContain("not JSON");
    expect(result.skipped).toEqual([{ key: "HEAD /customers", reason: "http tools cannot use HEAD." }]);
    expect(toolNameFor("get", "/a/{b}/c", undefined)).toBe("get_a_b_c");
  });

  it("produces tools the connector API accepts as they are", async () => {
    const result = await importOpenApi(CRM_YAML);
    const body = { type: "http", name: "CRM", config: { baseUrl: result.baseUrl }, tools: result.operations.map((o) => o.tool) };
    expect(CreateConnectorBody.safeParse(body).success).toBe(true);
  });

  it("reads JSON documents, OpenAPI 3.1 included, and keeps tool names unique", async () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "Dup", version: "1" },
      paths: {
        "/a": { get: { operationId: "list", responses: {} } },
        "/b": { get: { operationId: "list", responses: {} } },
      },
    };
    const result = await importOpenApi(JSON.stringify(doc));
    expect(result.operations.map((o) => o.tool.name)).toEqual(["list", "list_2"]);
    expect(result.baseUrl).toBeNull();
    expect(result.warnings[0]).toContain("no server");
  });

  it("survives circular schemas, leaving an open schema where the recursion was", async () => {
    const doc = {
      openapi: "3.0.0",
      info: { title: "Tree", version: "1" },
      paths: { "/nodes": { post: { requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } }, responses: {} } } },
      components: { schemas: { Node: { type: "object", properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } } } },
    };
    const [op] = (await importOpenApi(JSON.stringify(doc))).operations;
    const props = op.tool.inputSchema!.properties as Record<string, Record<string, unknown>>;
    expect(props.label).toEqual({ type: "string" });
    expect(JSON.stringify(props.children)).toContain("Recursive schema");
  });

  it("never fetches an external $ref", async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end(JSON.stringify({ type: "object" }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const doc = {
      openapi: "3.0.0",
      info: { title: "Ext", version: "1" },
      paths: { "/x": { post: { requestBody: { content: { "application/json": { schema: { $ref: `http://127.0.0.1:${port}/schema.json` } } } }, responses: {} } } },
    };
    try {
      const [op] = (await importOpenApi(JSON.stringify(doc))).operations;
      expect(hits).toBe(0);
      expect(op.warnings.join(" ")).toContain("not an object");
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it.each([
    ["", "empty"],
    ["{ not json", "neither valid JSON nor valid YAML"],
    ["- a\n- b", "must be a JSON or YAML object"],
    ['{"swagger":"2.0","info":{},"paths":{}}', "Swagger 2.0"],
    ['{"openapi":"2.5.0","info":{},"paths":{}}', "not supported"],
    ['{"info":{}}', '"openapi" field is missing'],
    ['{"openapi":"3.0.3","info":{"title":"No paths","version":"1"}}', 'The document has no "paths"'],
  ])("refuses %j with a readable reason", async (text, reason) => {
    const error = await importOpenApi(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenApiImportError);
    expect((error as Error).message).toContain(reason);
  });

  it("turns the security schemes into the secret headers to fill in, and says which cannot be headers", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "Secured", version: "1" },
      paths: {},
      components: {
        securitySchemes: {
          key: { type: "apiKey", in: "header", name: "X-Api-Key" },
          token: { type: "http", scheme: "bearer" },
          oauth: { type: "oauth2", flows: {} },
          queryKey: { type: "apiKey", in: "query", name: "api_key" },
        },
      },
    };
    const result = await importOpenApi(JSON.stringify(doc));
    expect(result.secretHeaders).toEqual([
      { name: "X-Api-Key", placeholder: "your API key", scheme: "key" },
      { name: "Authorization", placeholder: "Bearer <token>", scheme: "token" },
    ]);
    expect(result.warnings.join(" ")).toContain('The security scheme "queryKey" sends its key in the query');
  });
});
