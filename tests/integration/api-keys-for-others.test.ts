import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api, request } from "@/tests/helpers/api";
import { browserSessionOf, createTenant, createUser, createWorkspace, INSTANCE_KEY } from "@/tests/helpers/factories";
import { listKeyOwnerChoices } from "@/lib/api-keys/list-key-owner-choices";
import { INSTANCE_CALLER, type Caller } from "@/lib/auth/caller";

/**
 * "Keys made for another user are shown to that user, who can revoke them; both audited": a key
 * an admin issues in a member's name acts as that member, so the member must see it.
 */

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;

describe("API keys issued in another user's name", () => {
  it("are listed to that user with who issued them, and the user revokes them; both audited", async () => {
    const t = await createTenant();
    // A member of the org who has not joined this second workspace: the key is still theirs to see.
    const second = await createWorkspace(t.org.id);
    const adminBrowser = await browserSessionOf(t.admin.user);
    const made = await request("POST", keysPath(second.id), null, { name: "made for you", userId: t.member.user.id }, { headers: adminBrowser });
    expect(made.status).toBe(201);
    expect(made.body.createdBy).toMatchObject({ id: t.admin.user.id, email: t.admin.user.email });

    const browser = await browserSessionOf(t.member.user);
    const mine = await request("GET", "/api/v1/me/api-keys", null, undefined, { headers: browser });
    expect(mine.status).toBe(200);
    const listed = mine.body.items.find((k: { id: string }) => k.id === made.body.id);
    expect(listed).toMatchObject({ userId: t.member.user.id, workspaceId: second.id, revokedAt: null, createdBy: { id: t.admin.user.id, email: t.admin.user.email, name: "admin" } });
    expect(mine.text).not.toContain(made.body.key);
    // The member's own key, made by the factory outside the API, has no issuer recorded.
    expect(mine.body.items.find((k: { id: string }) => k.id === t.member.apiKeyId)).toMatchObject({ createdBy: null });

    const created = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "api_key.create", targetId: made.body.id } });
    expect(created).toMatchObject({ actorType: "user", actorId: t.admin.user.id, data: expect.objectContaining({ userId: t.member.user.id, forAnotherUser: true }) });

    expect((await api(made.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
    const revoked = await request("DELETE", `/api/v1/api-keys/${made.body.id}`, null, undefined, { headers: browser });
    expect(revoked.status).toBe(204);
    expect((await api(made.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    const event = await db().auditEvent.findFirstOrThrow({ where: { orgId: t.org.id, action: "api_key.revoke", targetId: made.body.id } });
    expect(event).toMatchObject({ actorType: "user", actorId: t.member.user.id, data: expect.objectContaining({ byOwner: true }) });
  });

  it("the workspace list shows a member the keys made for them, with the issuer; other people's keys stay hidden", async () => {
    const t = await createTenant();
    const made = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "made for you", userId: t.member.user.id });
    const list = await api(t.member.token).get(keysPath(t.workspace.id));
    const ids = list.body.items.map((k: { id: string }) => k.id);
    expect(ids).toContain(made.body.id);
    expect(ids).not.toContain(t.admin.apiKeyId);
    expect(list.body.items.find((k: { id: string }) => k.id === made.body.id).createdBy).toMatchObject({ id: t.admin.user.id });
  });

  it("nobody else sees them in their own list; the instance credential has no list of its own", async () => {
    const t = await createTenant();
    const stranger = await createUser("stranger");
    const made = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "made for you", userId: t.member.user.id });
    const theirs = await request("GET", "/api/v1/me/api-keys", null, undefined, { headers: await browserSessionOf(stranger) });
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    const adminOwn = await request("GET", "/api/v1/me/api-keys", null, undefined, { headers: await browserSessionOf(t.admin.user) });
    expect(adminOwn.body.items.map((k: { id: string }) => k.id)).not.toContain(made.body.id);
    expect((await api(INSTANCE_KEY).get("/api/v1/me/api-keys")).status).toBe(403);
  });
});

describe("API keys issued in a higher-ranking user's name", () => {
  it("an admin cannot issue a key that acts as an owner (it would make the admin an owner); an owner and the instance credential can", async () => {
    const t = await createTenant();
    const forOwner = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "owner, by admin", userId: t.owner.user.id });
    expect(forOwner.status).toBe(403);
    expect(forOwner.text).not.toContain("sb_");
    expect(await db().apiKey.count({ where: { userId: t.owner.user.id, name: "owner, by admin" } })).toBe(0);

    const otherAdmin = await api(t.owner.token).post(keysPath(t.workspace.id), { name: "admin, by owner", userId: t.admin.user.id });
    expect(otherAdmin.status).toBe(201);
    expect((await api(INSTANCE_KEY).post(keysPath(t.workspace.id), { name: "owner, by instance", userId: t.owner.user.id })).status).toBe(201);
    expect((await api(t.admin.token).post(keysPath(t.workspace.id), { name: "member, by admin", userId: t.member.user.id })).status).toBe(201);
  });

  it("the console's \"Acts as\" choice offers an admin only the people the API lets it issue keys for: no owner", async () => {
    const t = await createTenant();
    const browser = (userId: string): Caller => ({ kind: "user", userId, apiKey: null });
    const adminChoices = (await listKeyOwnerChoices(browser(t.admin.user.id), t.workspace.id)).choices.map((m) => m.userId);
    expect(adminChoices.sort()).toEqual([t.admin.user.id, t.member.user.id].sort());
    const ownerChoices = (await listKeyOwnerChoices(browser(t.owner.user.id), t.workspace.id)).choices.map((m) => m.userId);
    expect(ownerChoices).toHaveLength(3);
    expect((await listKeyOwnerChoices(INSTANCE_CALLER, t.workspace.id)).choices).toHaveLength(3);
    // The owner is still named where the admin sees the owner's keys.
    expect((await listKeyOwnerChoices(browser(t.admin.user.id), t.workspace.id)).members).toHaveLength(3);
    // Nor is the admin offered to revoke the owner's key (the API answers 403); the owner revokes anyone's.
    expect([...(await listKeyOwnerChoices(browser(t.admin.user.id), t.workspace.id)).unreachable]).toEqual([t.owner.user.id]);
    expect((await listKeyOwnerChoices(browser(t.owner.user.id), t.workspace.id)).unreachable.size).toBe(0);
    expect((await api(t.admin.token).delete(`/api/v1/api-keys/${t.owner.apiKeyId}`)).status).toBe(403);
    // Every choice the admin is offered is one the API accepts.
    for (const userId of adminChoices.filter((id) => id !== t.admin.user.id)) {
      expect((await api(t.admin.token).post(keysPath(t.workspace.id), { name: "offered", userId })).status).toBe(201);
    }
  });
});
