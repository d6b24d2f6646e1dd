import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createHttpConnector, createTenant, makeConnector } from "@/tests/helpers/factories";

/**
 * A connector's tools as a list of their own (a connector may have hundreds): searched, sorted,
 * paged; and an http connector's tools removed several at once, as the tool set's PATCH would.
 */

const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

describe("a connector's tools list", () => {
  it("keeps the connector's order, searches names and descriptions, sorts by name and pages", async () => {
    const t = await createTenant();
    const id = await createHttpConnector(t, "CRM", ["list_orders", "get_customer", "delete_order", "find_customer"]);
    await db().tool.updateMany({ where: { connectorId: id, orgId: t.org.id, name: "find_customer" }, data: { description: "Search people by e-mail" } });
    const admin = api(t.admin.token);
    const base = `/api/v1/connectors/${id}/tools`;

    const all = await admin.get(base);
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(["list_orders", "get_customer", "delete_order", "find_customer"]);
    expect(all.body.items[0]).toMatchObject({ position: 0, request: { method: "GET", path: "/list_orders" }, inputSchema: { type: "object" } });

    expect(names((await admin.get(`${base}?q=ORDER&sort=name`)).body)).toEqual(["delete_order", "list_orders"]);
    expect(names((await admin.get(`${base}?q=e-mail`)).body)).toEqual(["find_customer"]);
    const first = await admin.get(`${base}?sort=name&order=desc&limit=3`);
    expect(names(first.body)).toEqual(["list_orders", "get_customer", "find_customer"]);
    const second = await admin.get(`${base}?sort=name&order=desc&limit=3&cursor=${first.body.nextCursor}`);
    expect(names(second.body)).toEqual(["delete_order"]);
    expect(second.body.nextCursor).toBeNull();
    expect((await admin.get(`${base}?sort=request`)).status).toBe(422);
    // A member does not manage connectors: 404 like a missing connector.
    expect((await api(t.member.token).get(base)).status).toBe(404);
  });

  it("bulk delete removes the named tools of an http connector, reports ids that are not its tools, and audits once", async () => {
    const t = await createTenant();
    const id = await createHttpConnector(t, "CRM", ["a_tool", "b_tool", "c_tool"]);
    const other = await createHttpConnector(t, "Other", ["x_tool"]);
    const admin = api(t.admin.token);
    const tools = await db().tool.findMany({ where: { orgId: t.org.id }, select: { id: true, name: true } });
    const idOf = (name: string) => tools.find((x) => x.name === name)!.id;
    const before = (await admin.get(`/api/v1/connectors/${id}`)).headers.get("etag");

    const res = await admin.post(`/api/v1/connectors/${id}/tools/bulk-delete`, { ids: [idOf("a_tool"), idOf("c_tool"), idOf("x_tool")] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ done: 2, failed: 1 });
    expect(res.body.results).toEqual([
      { id: idOf("a_tool"), ok: true },
      { id: idOf("c_tool"), ok: true },
      { id: idOf("x_tool"), ok: false, error: { code: "not_found", message: expect.any(String) } },
    ]);
    const connector = await admin.get(`/api/v1/connectors/${id}`);
    expect(connector.body.tools.map((x: { name: string }) => x.name)).toEqual(["b_tool"]);
    expect(connector.headers.get("etag")).not.toBe(before);
    expect((await admin.get(`/api/v1/connectors/${other}`)).body.tools.map((x: { name: string }) => x.name)).toEqual(["x_tool"]);
    const audit = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "connector.update", targetId: id }, select: { data: true } });
    expect(audit).toEqual([{ data: expect.objectContaining({ fields: ["tools"], removedTools: ["a_tool", "c_tool"] }) }]);
  });

  it("bulk delete on an mcp connector is a conflict that changes nothing", async () => {
    const t = await createTenant();
    const connector = await makeConnector(t, { name: "Upstream", type: "mcp", tools: ["echo"] });
    const res = await api(t.admin.token).post(`/api/v1/connectors/${connector.id}/tools/bulk-delete`, { ids: [connector.tools[0].id] });
    expect(res.status).toBe(409);
    expect(await db().tool.count({ where: { connectorId: connector.id, orgId: t.org.id } })).toBe(1);
  });
});
