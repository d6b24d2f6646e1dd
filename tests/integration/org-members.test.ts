import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createUser, createWorkspace, INSTANCE_KEY, makeMember, makeWorkspaceMember } from "@/tests/helpers/factories";

const members = (orgId: string) => `/api/v1/orgs/${orgId}/members`;

describe("organization members API", () => {
  it("an admin lists the members with their roles, page by page", async () => {
    const t = await createTenant();
    const all = await api(t.admin.token).get(members(t.org.id));
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    const byUser = Object.fromEntries(all.body.items.map((m: { userId: string; role: string }) => [m.userId, m.role]));
    expect(byUser).toEqual({ [t.owner.user.id]: "owner", [t.admin.user.id]: "admin", [t.member.user.id]: "member" });
    expect(all.body.items[0]).toMatchObject({ id: expect.any(String), orgId: t.org.id, email: expect.stringContaining("@"), createdAt: expect.any(String) });

    const page1 = await api(t.admin.token).get(`${members(t.org.id)}?limit=2`);
    expect(page1.body.items).toHaveLength(2);
    const page2 = await api(t.admin.token).get(`${members(t.org.id)}?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.nextCursor).toBeNull();
    expect([...page1.body.items, ...page2.body.items].map((m: { id: string }) => m.id)).toEqual(all.body.items.map((m: { id: string }) => m.id));
  });

  it("a plain member cannot list the members (404)", async () => {
    const t = await createTenant();
    expect((await api(t.member.token).get(members(t.org.id))).status).toBe(404);
  });

  it("the instance credential adds an existing user with a role at once, audited; twice is a 409", async () => {
    const t = await createTenant();
    const user = await createUser("joiner");
    const res = await api(INSTANCE_KEY).post(members(t.org.id), { userId: user.id, role: "admin" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orgId: t.org.id, userId: user.id, email: user.email, role: "admin" });
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "org.member.add", targetId: user.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: "instance" });

    const again = await api(INSTANCE_KEY).post(members(t.org.id), { userId: user.id, role: "member" });
    expect(again.status).toBe(409);
  });

  it("an admin adding an existing user gets a pending invitation (202), no membership; twice is a 409", async () => {
    const t = await createTenant();
    const user = await createUser("joiner");
    const res = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "admin" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ orgId: t.org.id, email: user.email, role: "admin", status: "pending" });
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "org.invitation.create", targetId: res.body.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: "api_key", actorId: t.admin.user.id });

    const again = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "member" });
    expect(again.status).toBe(409);
    const member = await api(t.admin.token).post(members(t.org.id), { userId: t.member.user.id, role: "member" });
    expect(member.status).toBe(409);
  });

  it("an unknown user id is a 422 on userId; a bad role is a 422 on role", async () => {
    const t = await createTenant();
    const unknown = await api(t.admin.token).post(members(t.org.id), { userId: "usr_missing_000", role: "member" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toContainEqual(expect.objectContaining({ path: "userId" }));
    const user = await createUser();
    const badRole = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "king" });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors).toContainEqual(expect.objectContaining({ path: "role" }));
  });

  it("only an owner grants the owner role (an admin gets 403)", async () => {
    const t = await createTenant();
    const user = await createUser();
    const byAdmin = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "owner" });
    expect(byAdmin.status).toBe(403);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
    const promote = await api(t.admin.token).patch(`${members(t.org.id)}/${t.admin.user.id}`, { role: "owner" });
    expect(promote.status).toBe(403);
    const byOwner = await api(t.owner.token).post(members(t.org.id), { userId: user.id, role: "owner" });
    expect(byOwner.status).toBe(202);
    expect(byOwner.body).toMatchObject({ role: "owner", status: "pending" });
  });

  it("changes a member's role, audited", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).patch(`${members(t.org.id)}/${t.member.user.id}`, { role: "admin" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: t.member.user.id, role: "admin" });
    expect((await db().orgMember.findFirstOrThrow({ where: { orgId: t.org.id, userId: t.member.user.id } })).role).toBe("admin");
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "org.member.update" } });
    expect(event.data).toMatchObject({ from: "member", to: "admin" });
  });

  it("an admin cannot demote or remove an owner (403); the last owner cannot step down (409)", async () => {
    const t = await createTenant();
    expect((await api(t.admin.token).patch(`${members(t.org.id)}/${t.owner.user.id}`, { role: "member" })).status).toBe(403);
    expect((await api(t.admin.token).delete(`${members(t.org.id)}/${t.owner.user.id}`)).status).toBe(403);
    const stepDown = await api(t.owner.token).patch(`${members(t.org.id)}/${t.owner.user.id}`, { role: "admin" });
    expect(stepDown.status).toBe(409);
    const removeLast = await api(INSTANCE_KEY).delete(`${members(t.org.id)}/${t.owner.user.id}`);
    expect(removeLast.status).toBe(409);
    expect((await db().orgMember.findFirstOrThrow({ where: { orgId: t.org.id, userId: t.owner.user.id } })).role).toBe("owner");

    // With a second owner, the first may step down.
    await api(t.owner.token).patch(`${members(t.org.id)}/${t.admin.user.id}`, { role: "owner" });
    expect((await api(t.owner.token).patch(`${members(t.org.id)}/${t.owner.user.id}`, { role: "member" })).status).toBe(200);
  });

  it("two owners stepping down at the same moment leave one owner", async () => {
    const t = await createTenant();
    await db().orgMember.updateMany({ where: { orgId: t.org.id, userId: t.admin.user.id }, data: { role: "owner" } });
    const [a, b] = await Promise.all([
      api(t.owner.token).patch(`${members(t.org.id)}/${t.owner.user.id}`, { role: "admin" }),
      api(t.admin.token).patch(`${members(t.org.id)}/${t.admin.user.id}`, { role: "admin" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, role: "owner" } })).toBe(1);
  });

  it("removing a member also removes their workspace memberships and revokes their API keys in the org", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    await makeWorkspaceMember({ orgId: t.org.id, workspaceId: second.id }, { id: t.member.user.id });
    const secondKey = await createApiKeyFor(t.member.user, { id: second.id, orgId: t.org.id });
    const elsewhere = await createTenant();
    await makeMember({ orgId: elsewhere.org.id }, { user: t.member.user, role: "member", workspace: false });
    const keyElsewhere = await createApiKeyFor(t.member.user, { id: elsewhere.workspace.id, orgId: elsewhere.org.id });

    const res = await api(t.admin.token).delete(`${members(t.org.id)}/${t.member.user.id}`);
    expect(res.status).toBe(204);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: t.member.user.id } })).toBe(0);
    expect(await db().workspaceMember.count({ where: { orgId: t.org.id, userId: t.member.user.id } })).toBe(0);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    expect((await api(secondKey.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    // Their membership and key in another organization are untouched.
    expect((await api(keyElsewhere.token).get(`/api/v1/orgs/${elsewhere.org.id}`)).status).toBe(200);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "org.member.remove" } });
    expect(event.data).toMatchObject({ workspaceMemberships: 2, revokedApiKeys: 2 });
  });

  it("a user who is not a member is a 404", async () => {
    const t = await createTenant();
    const stranger = await createUser();
    expect((await api(t.admin.token).patch(`${members(t.org.id)}/${stranger.id}`, { role: "admin" })).status).toBe(404);
    expect((await api(t.admin.token).delete(`${members(t.org.id)}/${stranger.id}`)).status).toBe(404);
  });
});
