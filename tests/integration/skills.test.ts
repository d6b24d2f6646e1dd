import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, makeConnector } from "@/tests/helpers/factories";

const connectorIn = (orgId: string) => makeConnector({ orgId }, { name: "CRM" });

describe("skills API", () => {
  it("an admin adds a skill: applied by default, workspace-wide unless scoped", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "# Be brief" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      workspaceId: t.workspace.id,
      name: "Tone",
      content: "# Be brief",
      connectorId: null,
      applied: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await api(t.admin.token).get(`/api/v1/skills/${res.body.id}`);
    expect(read.body).toEqual(res.body);
    const list = await api(t.owner.token).get(`/api/v1/workspaces/${t.workspace.id}/skills`);
    expect(list.body).toEqual({ items: [res.body], nextCursor: null });
  });

  it("a skill can be scoped to a connector of the organization, never to another organization's", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const own = await connectorIn(t.org.id);
    const foreign = await connectorIn(other.org.id);
    const scoped = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "CRM tips", content: "x", connectorId: own.id, applied: false });
    expect(scoped.status).toBe(201);
    expect(scoped.body).toMatchObject({ connectorId: own.id, applied: false });

    const refused = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Bad", content: "x", connectorId: foreign.id });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: "connectorId", message: expect.any(String) }]);
    const unknown = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Bad", content: "x", connectorId: "conn_missing" });
    expect(unknown.body).toEqual(refused.body);

    const patched = await api(t.owner.token).patch(`/api/v1/skills/${scoped.body.id}`, { connectorId: foreign.id });
    expect(patched.status).toBe(422);
    expect(await db().skill.count({ where: { workspaceId: t.workspace.id } })).toBe(1);
    expect((await db().skill.findUnique({ where: { id: scoped.body.id } }))?.connectorId).toBe(own.id);
  });

  it("updates and deletes a skill, auditing each change", async () => {
    const t = await createTenant();
    const created = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "a" });
    const id = created.body.id;
    const patched = await api(t.admin.token).patch(`/api/v1/skills/${id}`, { content: "b", applied: false, connectorId: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, name: "Tone", content: "b", applied: false, connectorId: null });
    expect((await api(t.admin.token).delete(`/api/v1/skills/${id}`)).status).toBe(204);
    expect((await api(t.admin.token).get(`/api/v1/skills/${id}`)).status).toBe(404);
    const events = await db().auditEvent.findMany({ where: { targetType: "skill", targetId: id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["skill.create", "skill.update", "skill.delete"]);
    expect((events[1].data as { fields: string[] }).fields.sort()).toEqual(["applied", "connectorId", "content"]);
  });

  it("empty content and wrong types are refused with 422", async () => {
    const t = await createTenant();
    const empty = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].path).toBe("content");
    const wrong = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "x", applied: "yes" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].path).toBe("applied");
  });

  it("a plain member neither reads nor writes skills (404)", async () => {
    const t = await createTenant();
    const created = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "a" });
    const member = api(t.member.token);
    expect((await member.get(`/api/v1/workspaces/${t.workspace.id}/skills`)).status).toBe(404);
    expect((await member.get(`/api/v1/skills/${created.body.id}`)).status).toBe(404);
    expect((await member.patch(`/api/v1/skills/${created.body.id}`, { content: "hacked" })).status).toBe(404);
    expect((await member.post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Mine", content: "x" })).status).toBe(404);
    expect((await db().skill.findUnique({ where: { id: created.body.id } }))?.content).toBe("a");
  });
});
