import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";

async function connectorOf(t: Tenant, name = "CRM"): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name, type: "http", config: { baseUrl: "https://api.example.com" } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const resourcesOf = (connectorId: string) => `/api/v1/connectors/${connectorId}/resources`;

describe("stored resources", () => {
  it("an admin adds one: 201 with the contract's fields; the row lands in mcp_resources; audited", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const res = await api(t.admin.token).post(resourcesOf(connectorId), {
      uri: "crm://schema",
      name: "CRM schema",
      description: "Tables and fields",
      mimeType: "Text/Markdown",
      fetchConfig: { text: "# Schema" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      connectorId,
      uri: "crm://schema",
      name: "CRM schema",
      description: "Tables and fields",
      mimeType: "text/markdown",
      fetchConfig: { text: "# Schema" },
      createdAt: expect.any(String),
    });
    const rows = await db().$queryRaw<{ id: string; uri: string; mime_type: string; fetch_config: unknown }[]>`
      SELECT id, uri, mime_type, fetch_config FROM mcp_resources WHERE connector_id = ${connectorId}`;
    expect(rows).toEqual([{ id: res.body.id, uri: "crm://schema", mime_type: "text/markdown", fetch_config: { text: "# Schema" } }]);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "resource.create", targetId: res.body.id } });
    expect(event.data).toMatchObject({ connectorId, uri: "crm://schema" });
  });

  it("optional fields default to null", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const res = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "https://docs.example.com/setup", name: "Setup" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, mimeType: null, fetchConfig: null });
  });

  it.each([
    ["a relative reference", "/docs/setup"],
    ["a bare word", "schema"],
    ["a URI with spaces", "crm://my schema"],
    ["an empty string", ""],
    ["the reserved anythingmcp: scheme", "anythingmcp://server/x/instructions"],
    ["the reserved scheme in capitals", "AnythingMCP://server/x/knowledge-graph"],
  ])("refuses %s with 422 on uri", async (_label, uri) => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const res = await api(t.admin.token).post(resourcesOf(connectorId), { uri, name: "R" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "uri" }));
    expect(await db().storedResource.count({ where: { connectorId } })).toBe(0);
  });

  it("says why an anythingmcp: URI is refused", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(resourcesOf(await connectorOf(t)), { uri: "anythingmcp://server/x/instructions", name: "R" });
    expect(res.body.errors[0].message).toMatch(/reserved/);
  });

  it.each(["text/plain; charset=utf-8", "text", "*/*", "text/ plain"])("refuses the media type %j with 422 on mimeType", async (mimeType) => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const res = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "crm://x", name: "R", mimeType });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "mimeType" }));
  });

  it("lists a connector's resources only, with pagination, including rows inserted by plain SQL", async () => {
    const t = await createTenant();
    const a = await connectorOf(t, "A");
    const b = await connectorOf(t, "B");
    for (const uri of ["crm://one", "crm://two"]) await api(t.admin.token).post(resourcesOf(a), { uri, name: uri });
    await api(t.admin.token).post(resourcesOf(b), { uri: "crm://other", name: "other" });
    await db().$executeRaw`INSERT INTO mcp_resources (connector_id, uri, name) VALUES (${a}, 'crm://by-sql', 'by sql')`;

    const page1 = await api(t.owner.token).get(`${resourcesOf(a)}?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.nextCursor).toBe(page1.body.items[1].id);
    const page2 = await api(t.owner.token).get(`${resourcesOf(a)}?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.nextCursor).toBeNull();
    const uris = [...page1.body.items, ...page2.body.items].map((r: { uri: string }) => r.uri).sort();
    expect(uris).toEqual(["crm://by-sql", "crm://one", "crm://two"]);
  });

  it("DELETE removes one resource (204), then 404; audited", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const keep = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "crm://keep", name: "keep" });
    const drop = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "crm://drop", name: "drop" });
    expect((await api(t.admin.token).delete(`/api/v1/resources/${drop.body.id}`)).status).toBe(204);
    expect((await api(t.admin.token).delete(`/api/v1/resources/${drop.body.id}`)).status).toBe(404);
    const left = await api(t.admin.token).get(resourcesOf(connectorId));
    expect(left.body.items.map((r: { id: string }) => r.id)).toEqual([keep.body.id]);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "resource.delete", targetId: drop.body.id } })).toBe(1);
  });

  it("plain members and other organizations get 404 on every resource endpoint; the instance credential manages them", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const connectorId = await connectorOf(t);
    const created = await api(INSTANCE_KEY).post(resourcesOf(connectorId), { uri: "crm://x", name: "x" });
    expect(created.status).toBe(201);
    for (const token of [t.member.token, other.owner.token]) {
      expect((await api(token).post(resourcesOf(connectorId), { uri: "crm://y", name: "y" })).status).toBe(404);
      expect((await api(token).get(resourcesOf(connectorId))).status).toBe(404);
      expect((await api(token).delete(`/api/v1/resources/${created.body.id}`)).status).toBe(404);
    }
    expect(await db().storedResource.count({ where: { connectorId } })).toBe(1);
  });
});

describe("PATCH /api/v1/resources/{resourceId}", () => {
  it("an admin changes some fields with the creation rules; the others stay; audited", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const created = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "crm://schema", name: "Schema", fetchConfig: { text: "v1" } });
    const res = await api(t.admin.token).patch(`/api/v1/resources/${created.body.id}`, { name: "Schema v2", mimeType: "Text/Markdown", fetchConfig: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, uri: "crm://schema", name: "Schema v2", mimeType: "text/markdown", fetchConfig: null });
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "resource.update", targetId: created.body.id } });
    expect(event.data).toMatchObject({ connectorId, fields: ["name", "mimeType", "fetchConfig"] });
  });

  it("refuses a reserved or malformed URI with 422 on uri", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const created = await api(t.admin.token).post(resourcesOf(connectorId), { uri: "crm://schema", name: "Schema" });
    for (const uri of ["anythingmcp://server/x/instructions", "no scheme"]) {
      const res = await api(t.admin.token).patch(`/api/v1/resources/${created.body.id}`, { uri });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe("uri");
    }
  });
});
