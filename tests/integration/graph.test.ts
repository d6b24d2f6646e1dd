import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";

async function connectorOf(t: Tenant): Promise<string> {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "CRM", type: "http", config: { baseUrl: "https://api.example.com" } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const graphOf = (connectorId: string) => `/api/v1/connectors/${connectorId}/graph`;

const layer = {
  entities: [
    { key: "order", label: "Order", description: "A purchase" },
    { key: "customer", label: "Customer" },
  ],
  relations: [
    { from: "order", to: "customer", kind: "placed_by", description: "who ordered" },
    { from: "customer", to: "tool:get_customer", kind: "read_with" },
  ],
};

describe("knowledge graph: manual layer", () => {
  it("PUT stores the layer and answers it; GET returns the same; audited", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const put = await api(t.admin.token).put(graphOf(connectorId), layer);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      connectorId,
      entities: [
        { key: "customer", label: "Customer", description: null },
        { key: "order", label: "Order", description: "A purchase" },
      ],
      relations: [
        { from: "customer", to: "tool:get_customer", kind: "read_with", description: null },
        { from: "order", to: "customer", kind: "placed_by", description: "who ordered" },
      ],
    });
    const get = await api(t.owner.token).get(graphOf(connectorId));
    expect(get.status).toBe(200);
    expect(get.body).toEqual(put.body);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "graph.replace", targetId: connectorId } });
    expect(event.data).toMatchObject({ entityCount: 2, relationCount: 2 });
  });

  it("a new connector has an empty manual layer", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const get = await api(t.admin.token).get(graphOf(connectorId));
    expect(get.body).toEqual({ connectorId, entities: [], relations: [] });
  });

  it("PUT replaces the whole layer; an empty PUT clears it", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    await api(t.admin.token).put(graphOf(connectorId), layer);
    const next = await api(t.admin.token).put(graphOf(connectorId), { entities: [{ key: "invoice", label: "Invoice" }], relations: [] });
    expect(next.body.entities.map((e: { key: string }) => e.key)).toEqual(["invoice"]);
    expect(next.body.relations).toEqual([]);
    expect(await db().graphEntity.count({ where: { connectorId } })).toBe(1);
    const cleared = await api(t.admin.token).put(graphOf(connectorId), { entities: [], relations: [] });
    expect(cleared.body).toEqual({ connectorId, entities: [], relations: [] });
    expect(await db().graphRelation.count({ where: { connectorId } })).toBe(0);
  });

  it("refuses duplicate entity keys with 422 and leaves the stored layer as it was", async () => {
    const t = await createTenant();
    const connectorId = await connectorOf(t);
    const first = await api(t.admin.token).put(graphOf(connectorId), layer);
    const res = await api(t.admin.token).put(graphOf(connectorId), {
      entities: [
        { key: "a", label: "A" },
        { key: "a", label: "A again" },
      ],
      relations: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "entities.1.key" }));
    expect((await api(t.admin.token).get(graphOf(connectorId))).body).toEqual(first.body);
  });

  it.each([
    ["an empty relation end", { entities: [], relations: [{ from: "", to: "b", kind: "k" }] }, "relations.0.from"],
    ["a relation without kind", { entities: [], relations: [{ from: "a", to: "b" }] }, "relations.0.kind"],
    ["an entity without label", { entities: [{ key: "a" }], relations: [] }, "entities.0.label"],
    ["a missing relations list", { entities: [] }, "relations"],
  ])("refuses %s with 422", async (_label, body, path) => {
    const t = await createTenant();
    const res = await api(t.admin.token).put(graphOf(await connectorOf(t)), body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path }));
  });

  it("plain members and other organizations get 404 and change nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const connectorId = await connectorOf(t);
    await api(t.admin.token).put(graphOf(connectorId), layer);
    for (const token of [t.member.token, other.owner.token]) {
      expect((await api(token).get(graphOf(connectorId))).status).toBe(404);
      expect((await api(token).put(graphOf(connectorId), { entities: [], relations: [] })).status).toBe(404);
    }
    expect(await db().graphEntity.count({ where: { connectorId } })).toBe(2);
  });
});
