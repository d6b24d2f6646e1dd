import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createUser, createWorkspace, INSTANCE_KEY, makeMember, makeRole, makeWorkspaceMember, type Tenant } from "@/tests/helpers/factories";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function roleIn(orgId: string): Promise<string> {
  return (await makeRole({ orgId })).id;
}

/** A user in the tenant's organization who is not yet in its workspace. */
async function orgOnlyUser(t: Tenant) {
  const user = await makeMember({ orgId: t.org.id }, { role: "member", label: "org-only", workspace: false });
  return user;
}

describe("workspaces API", () => {
  it("an admin creates a workspace with both settings off by default, audited", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Support", slug: "support" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      orgId: t.org.id,
      name: "Support",
      slug: "support",
      knowledgeGraphEnabled: false,
      toolWhitelistsEnabled: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "workspace.create" } });
    expect(event).toMatchObject({ workspaceId: res.body.id, targetId: res.body.id, actorId: t.admin.user.id });
  });

  it("takes the settings when given; a slug taken in the org is a 409, free in another org", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "KG", slug: "kg", knowledgeGraphEnabled: true, toolWhitelistsEnabled: true });
    expect(res.body).toMatchObject({ knowledgeGraphEnabled: true, toolWhitelistsEnabled: true });
    const dup = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Again", slug: "kg" });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain("kg");
    expect((await api(other.owner.token).post(`/api/v1/orgs/${other.org.id}/workspaces`, { name: "KG", slug: "kg" })).status).toBe(201);
  });

  it("refuses a bad slug and wrong setting types with 422", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "", slug: "Bad Slug", toolWhitelistsEnabled: "yes" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(["name", "slug", "toolWhitelistsEnabled"]));
  });

  it("a plain member cannot create a workspace (404)", async () => {
    const t = await createTenant();
    const res = await api(t.member.token).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Nope", slug: "nope" });
    expect(res.status).toBe(404);
    expect(await db().workspace.count({ where: { orgId: t.org.id } })).toBe(1);
  });

  it("lists the workspaces the caller works in; the instance sees all, page by page", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    const third = await createWorkspace(t.org.id);
    const mine = await api(t.member.token).get(`/api/v1/orgs/${t.org.id}/workspaces`);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((w: { id: string }) => w.id)).toEqual([t.workspace.id]);

    const page1 = await api(INSTANCE_KEY).get(`/api/v1/orgs/${t.org.id}/workspaces?limit=2`);
    expect(page1.body.items).toHaveLength(2);
    const page2 = await api(INSTANCE_KEY).get(`/api/v1/orgs/${t.org.id}/workspaces?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.nextCursor).toBeNull();
    const ids = [...page1.body.items, ...page2.body.items].map((w: { id: string }) => w.id);
    expect(ids.sort()).toEqual([t.workspace.id, second.id, third.id].sort());
  });

  it("a member reads their workspace, not a sibling they did not join", async () => {
    const t = await createTenant();
    const sibling = await createWorkspace(t.org.id);
    const own = await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: t.workspace.id, orgId: t.org.id, slug: t.workspace.slug });
    expect((await api(t.member.token).get(`/api/v1/workspaces/${sibling.id}`)).status).toBe(404);
  });

  it("an admin changes the name, slug and settings; a taken slug is a 409; a member gets 404", async () => {
    const t = await createTenant();
    const sibling = await createWorkspace(t.org.id);
    const res = await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}`, { name: "Renamed", slug: "renamed", toolWhitelistsEnabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", slug: "renamed", toolWhitelistsEnabled: true, knowledgeGraphEnabled: false });
    const event = await db().auditEvent.findFirstOrThrow({ where: { workspaceId: t.workspace.id, action: "workspace.update" } });
    expect(event.data).toMatchObject({ name: "Renamed", toolWhitelistsEnabled: true });
    const taken = await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}`, { slug: sibling.slug });
    expect(taken.status).toBe(409);
    expect((await api(t.member.token).patch(`/api/v1/workspaces/${t.workspace.id}`, { name: "Mine" })).status).toBe(404);
    expect((await db().workspace.findUniqueOrThrow({ where: { id: t.workspace.id } })).name).toBe("Renamed");
  });

  it("deleting a workspace removes it and its members; the org stays and records it", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).delete(`/api/v1/workspaces/${t.workspace.id}`);
    expect(res.status).toBe(204);
    expect(await db().workspace.findUnique({ where: { id: t.workspace.id } })).toBeNull();
    expect(await db().workspaceMember.count({ where: { workspaceId: t.workspace.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "workspace.delete", targetId: t.workspace.id } })).toBe(1);
    expect((await api(INSTANCE_KEY).get(`/api/v1/workspaces/${t.workspace.id}`)).status).toBe(404);
  });
});

describe("workspace members API", () => {
  it("adds an org member with an MCP role, audited; twice is a 409", async () => {
    const t = await createTenant();
    const user = await orgOnlyUser(t);
    const roleId = await roleIn(t.org.id);
    const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members`, { userId: user.id, mcpRoleId: roleId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ workspaceId: t.workspace.id, orgId: t.org.id, userId: user.id, email: user.email, mcpRoleId: roleId });
    expect(await db().auditEvent.count({ where: { workspaceId: t.workspace.id, action: "workspace.member.add", targetId: user.id } })).toBe(1);
    const again = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members`, { userId: user.id });
    expect(again.status).toBe(409);
  });

  it("someone outside the organization is a 422 on userId; a role of another org a 422 on mcpRoleId", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const outsider = await createUser("outsider");
    const notInOrg = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members`, { userId: outsider.id });
    expect(notInOrg.status).toBe(422);
    expect(notInOrg.body.errors).toContainEqual(expect.objectContaining({ path: "userId" }));
    const otherMember = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members`, { userId: other.member.user.id });
    expect(otherMember.status).toBe(422);

    const user = await orgOnlyUser(t);
    const foreignRole = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members`, { userId: user.id, mcpRoleId: await roleIn(other.org.id) });
    expect(foreignRole.status).toBe(422);
    expect(foreignRole.body.errors).toContainEqual(expect.objectContaining({ path: "mcpRoleId" }));
    expect(await db().workspaceMember.count({ where: { workspaceId: t.workspace.id, userId: { in: [outsider.id, user.id] } } })).toBe(0);
  });

  it("lists the members for an admin; a plain member gets 404", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/members?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    const rest = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/members?cursor=${res.body.nextCursor}`);
    const users = [...res.body.items, ...rest.body.items].map((m: { userId: string }) => m.userId);
    expect(users.sort()).toEqual([t.owner.user.id, t.admin.user.id, t.member.user.id].sort());
    expect((await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}/members`)).status).toBe(404);
  });

  it("changes a member's MCP role and clears it; a foreign role is a 422", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const roleId = await roleIn(t.org.id);
    const path = `/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`;
    const set = await api(t.admin.token).patch(path, { mcpRoleId: roleId });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ userId: t.member.user.id, mcpRoleId: roleId });
    const foreign = await api(t.admin.token).patch(path, { mcpRoleId: await roleIn(other.org.id) });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toContainEqual(expect.objectContaining({ path: "mcpRoleId" }));
    const cleared = await api(t.admin.token).patch(path, { mcpRoleId: null });
    expect(cleared.body.mcpRoleId).toBeNull();
    const events = await db().auditEvent.findMany({ where: { workspaceId: t.workspace.id, action: "workspace.member.update" } });
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.data)).toEqual(
      expect.arrayContaining([{ from: null, to: roleId, apiKeyId: t.admin.apiKeyId }, { from: roleId, to: null, apiKeyId: t.admin.apiKeyId }]),
    );
  });

  it("removing a member revokes their API keys in that workspace only", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    await makeWorkspaceMember({ orgId: t.org.id, workspaceId: second.id }, { id: t.member.user.id });
    const secondKey = await createApiKeyFor(t.member.user, { id: second.id, orgId: t.org.id });
    const res = await api(t.admin.token).delete(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`);
    expect(res.status).toBe(204);
    expect(await db().workspaceMember.count({ where: { workspaceId: t.workspace.id, userId: t.member.user.id } })).toBe(0);
    expect((await api(t.member.token).get(`/api/v1/workspaces/${t.workspace.id}`)).status).toBe(401);
    expect((await api(secondKey.token).get(`/api/v1/workspaces/${second.id}`)).status).toBe(200);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: t.member.user.id } })).toBe(1);
    const again = await api(t.admin.token).delete(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`);
    expect(again.status).toBe(404);
  });
});
