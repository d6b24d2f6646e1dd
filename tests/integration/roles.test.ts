import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, makeConnector } from "@/tests/helpers/factories";

async function connectorIn(orgId: string, tools: string[] = []): Promise<string> {
  return (await makeConnector({ orgId }, { type: "mcp", tools })).id;
}

const sortTools = (tools: { connectorId: string; tool: string }[]) =>
  [...tools].sort((a, b) => `${a.connectorId}/${a.tool}`.localeCompare(`${b.connectorId}/${b.tool}`));

describe("MCP roles API", () => {
  it("an admin creates a role with a tool whitelist (duplicates collapse), audited", async () => {
    const t = await createTenant();
    const crm = await connectorIn(t.org.id, ["get_customer", "list_orders"]);
    const docs = await connectorIn(t.org.id, ["search"]);
    const tools = [
      { connectorId: crm, tool: "get_customer" },
      { connectorId: docs, tool: "search" },
      { connectorId: crm, tool: "get_customer" },
    ];
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Support", tools });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), orgId: t.org.id, name: "Support" });
    expect(sortTools(res.body.tools)).toEqual(sortTools(tools.slice(0, 2)));
    expect(await db().mcpRoleTool.count({ where: { roleId: res.body.id } })).toBe(2);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "role.create" } });
    expect(event).toMatchObject({ targetId: res.body.id, actorId: t.admin.user.id });
  });

  it("a connector of another organization is a 422 naming tools.N.connectorId, and nothing is created", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const mine = await connectorIn(t.org.id, ["a"]);
    const theirs = await connectorIn(other.org.id, ["b"]);
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, {
      name: "Sneaky",
      tools: [{ connectorId: mine, tool: "a" }, { connectorId: theirs, tool: "b" }, { connectorId: "missing", tool: "c" }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["tools.1.connectorId", "tools.2.connectorId"]);
    expect(await db().mcpRole.count({ where: { orgId: t.org.id } })).toBe(0);
  });

  it("a name taken in the organization is a 409", async () => {
    const t = await createTenant();
    await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Ops", tools: [] });
    const dup = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Ops", tools: [] });
    expect(dup.status).toBe(409);
  });

  it("tools are kept by name: a whitelist survives the connector's tools being re-discovered", async () => {
    const t = await createTenant();
    const docs = await connectorIn(t.org.id, ["search"]);
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Reader", tools: [{ connectorId: docs, tool: "search" }] });
    // A reload replaces the tool rows.
    await db().tool.deleteMany({ where: { connectorId: docs } });
    await db().tool.create({ data: { orgId: t.org.id, connectorId: docs, name: "search" } });
    const read = await api(t.admin.token).get(`/api/v1/roles/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.tools).toEqual([{ connectorId: docs, tool: "search" }]);
  });

  it("lists the roles of the organization for an admin; a plain member gets 404", async () => {
    const t = await createTenant();
    for (const name of ["A", "B", "C"]) await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name, tools: [] });
    const page1 = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/roles?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    const page2 = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/roles?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.nextCursor).toBeNull();
    expect([...page1.body.items, ...page2.body.items].map((r: { name: string }) => r.name).sort()).toEqual(["A", "B", "C"]);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/roles`)).status).toBe(404);
    expect((await api(t.member.token).get(`/api/v1/roles/${page1.body.items[0].id}`)).status).toBe(404);
  });

  it("PATCH renames and keeps the tools, or replaces them when given", async () => {
    const t = await createTenant();
    const crm = await connectorIn(t.org.id, ["get_customer", "list_orders"]);
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Sales", tools: [{ connectorId: crm, tool: "get_customer" }] });
    const renamed = await api(t.admin.token).patch(`/api/v1/roles/${created.body.id}`, { name: "Sales EU" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Sales EU", tools: [{ connectorId: crm, tool: "get_customer" }] });
    const replaced = await api(t.admin.token).patch(`/api/v1/roles/${created.body.id}`, { tools: [{ connectorId: crm, tool: "list_orders" }] });
    expect(replaced.body).toMatchObject({ name: "Sales EU", tools: [{ connectorId: crm, tool: "list_orders" }] });
    expect(await db().mcpRoleTool.count({ where: { roleId: created.body.id } })).toBe(1);
    const other = await createTenant();
    const foreign = await api(t.admin.token).patch(`/api/v1/roles/${created.body.id}`, { tools: [{ connectorId: await connectorIn(other.org.id), tool: "x" }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toContainEqual(expect.objectContaining({ path: "tools.0.connectorId" }));
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "role.update", targetId: created.body.id } })).toBe(2);
  });

  it("deleting a role leaves its workspace members in place without a role", async () => {
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Temp", tools: [] });
    await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: created.body.id });
    const res = await api(t.admin.token).delete(`/api/v1/roles/${created.body.id}`);
    expect(res.status).toBe(204);
    expect(await db().mcpRole.findUnique({ where: { id: created.body.id } })).toBeNull();
    const member = await db().workspaceMember.findFirstOrThrow({ where: { workspaceId: t.workspace.id, userId: t.member.user.id } });
    expect(member.mcpRoleId).toBeNull();
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "role.delete", targetId: created.body.id } })).toBe(1);
    expect((await api(t.admin.token).get(`/api/v1/roles/${created.body.id}`)).status).toBe(404);
  });
});
