import { describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";

/** `POST /orgs/{orgId}/connectors/import-openapi`: the console's OpenAPI import, as an API operation. */

const document = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Billing API", version: "2.0" },
  servers: [{ url: "https://billing.example.com/v2" }],
  components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Billing-Key" } } },
  paths: {
    "/invoices/{id}": {
      get: { operationId: "getInvoice", summary: "One invoice", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] },
    },
  },
});

describe("OpenAPI import over the API", () => {
  it("an admin reads a document into tools, title, base URL and secret headers", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors/import-openapi`, { document });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Billing API", baseUrl: "https://billing.example.com/v2", secretHeaders: [{ name: "X-Billing-Key", scheme: "key" }] });
    expect(res.body.operations).toHaveLength(1);
    expect(res.body.operations[0]).toMatchObject({ key: "GET /invoices/{id}", tool: { name: "getInvoice", request: { method: "GET", path: "/invoices/{id}" } } });
    // The tools it answers are accepted as they are by connector creation.
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
      name: res.body.title,
      type: "http",
      config: { baseUrl: res.body.baseUrl },
      tools: res.body.operations.map((o: { tool: unknown }) => o.tool),
    });
    expect(created.status).toBe(201);
  });

  it("a document that cannot be imported is a 422 on `document` that says why", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors/import-openapi`, { document: '{"swagger":"2.0"}' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "document", message: expect.stringContaining("Swagger 2.0") }]);
  });

  it("a member, another organization's admin and a missing organization get the same 404", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const path = `/api/v1/orgs/${t.org.id}/connectors/import-openapi`;
    const answers = await Promise.all([api(t.member.token).post(path, { document }), api(other.admin.token).post(path, { document }), api(t.admin.token).post("/api/v1/orgs/id_missing_000/connectors/import-openapi", { document })]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect(answers[0].body).toEqual(answers[2].body);
    expect(answers[1].body).toEqual(answers[2].body);
  });
});
