import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api, request } from "@/tests/helpers/api";
import { joinWithNewAccount } from "@/lib/invitations/answer-invitation-link";
import { browserSessionOf, createApiKeyFor, createTenant, createUser, createWorkspace, makeMember, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * "Adding an account that already exists needs that user's consent — an invitation they
 * accept": an owner/admin's add becomes a pending invitation; only the invited person, signed
 * in, turns it into a membership.
 */

const members = (orgId: string) => `/api/v1/orgs/${orgId}/members`;
const invitations = (orgId: string) => `/api/v1/orgs/${orgId}/invitations`;

/** The invited person's browser: their session cookie, from the console's origin. */
async function browserOf(user: { id: string; email: string }) {
  const headers = await browserSessionOf(user);
  return {
    get: (path: string) => request("GET", path, null, undefined, { headers }),
    post: (path: string) => request("POST", path, null, undefined, { headers }),
  };
}

describe("invitations to an organization", () => {
  it("an admin adding an existing user makes an invitation: no membership, no key in their name until they accept", async () => {
    const t = await createTenant();
    const user = await createUser("invitee");
    const added = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "member" });
    expect(added.status).toBe(202);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);

    const key = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/api-keys`, { name: "for them", userId: user.id });
    expect(key.status).toBe(422);
    expect(await db().apiKey.count({ where: { userId: user.id } })).toBe(0);

    const pending = await api(t.admin.token).get(invitations(t.org.id));
    expect(pending.body.items).toEqual([expect.objectContaining({ id: added.body.id, email: user.email, status: "pending", invitedBy: expect.objectContaining({ email: t.admin.user.email }) })]);
  });

  it("the invited user sees the invitation, accepts it and becomes a member of the org and the invited workspaces, audited", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    const user = await createUser("invitee");
    const invited = await api(t.owner.token).post(invitations(t.org.id), { email: user.email, role: "admin", workspaceIds: [second.id] });
    expect(invited.status).toBe(201);

    const browser = await browserOf(user);
    const mine = await browser.get("/api/v1/me/invitations");
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ id: invited.body.id, orgName: expect.stringContaining("Org "), role: "admin", workspaceIds: [second.id] })]);

    const accepted = await browser.post(`/api/v1/invitations/${invited.body.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ orgId: t.org.id, userId: user.id, role: "admin" });
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id, role: "admin" } })).toBe(1);
    expect(await db().workspaceMember.count({ where: { workspaceId: second.id, userId: user.id } })).toBe(1);
    expect((await browser.get("/api/v1/me/invitations")).body.items).toEqual([]);
    expect((await api(t.admin.token).get(invitations(t.org.id))).body.items).toEqual([]);

    const actions = await db().auditEvent.findMany({ where: { orgId: t.org.id, actorId: user.id }, orderBy: { createdAt: "asc" } });
    expect(actions.map((e) => e.action).sort()).toEqual(["org.invitation.accept", "org.member.add"]);
    expect((await browser.post(`/api/v1/invitations/${invited.body.id}/accept`)).status).toBe(409);
  });

  it("declining changes nothing but the invitation, which can then no longer be accepted", async () => {
    const t = await createTenant();
    const user = await createUser("invitee");
    const invited = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "member" });
    const browser = await browserOf(user);
    const declined = await browser.post(`/api/v1/invitations/${invited.body.id}/decline`);
    expect(declined.status).toBe(204);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
    expect((await browser.post(`/api/v1/invitations/${invited.body.id}/accept`)).status).toBe(409);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "org.invitation.decline", actorId: user.id } })).toBe(1);
  });

  it("only the invited person's own browser session answers: another person, another org's admin and an API key cannot", async () => {
    const t = await createTenant();
    const user = await createUser("invitee");
    const invited = await api(t.admin.token).post(members(t.org.id), { userId: user.id, role: "member" });
    const path = `/api/v1/invitations/${invited.body.id}`;

    const stranger = await browserOf(await createUser("stranger"));
    const missing = await stranger.post("/api/v1/invitations/inv_missing_000/accept");
    const notTheirs = await stranger.post(`${path}/accept`);
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toEqual(missing.body);

    const other = await createTenant();
    expect((await api(other.owner.token).delete(path)).status).toBe(404);
    expect((await api(other.owner.token).post(`${path}/accept`)).status).toBe(404);

    // An admin who issued a key in the person's name must not be able to consent for them.
    await makeMember({ orgId: other.org.id }, { user, role: "member", workspace: false });
    const theirKey = await createApiKeyFor(user, { id: other.workspace.id, orgId: other.org.id });
    expect((await api(theirKey.token).post(`${path}/accept`)).status).toBe(403);
    expect((await api(theirKey.token).get("/api/v1/me/invitations")).status).toBe(403);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
  });

  it("a revoked or expired invitation cannot be accepted; revoking is audited", async () => {
    const t = await createTenant();
    const user = await createUser("invitee");
    const browser = await browserOf(user);
    const first = await api(t.admin.token).post(invitations(t.org.id), { email: user.email });
    expect((await api(t.admin.token).delete(`/api/v1/invitations/${first.body.id}`)).status).toBe(204);
    expect(await db().auditEvent.count({ where: { orgId: t.org.id, action: "org.invitation.revoke", targetId: first.body.id } })).toBe(1);
    expect((await browser.post(`/api/v1/invitations/${first.body.id}/accept`)).status).toBe(409);
    expect((await api(t.admin.token).delete(`/api/v1/invitations/${first.body.id}`)).status).toBe(409);

    const second = await api(t.admin.token).post(invitations(t.org.id), { email: user.email });
    expect(second.status).toBe(201);
    await db().orgInvitation.update({ where: { id: second.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await browser.get("/api/v1/me/invitations")).body.items).toEqual([]);
    expect((await api(t.admin.token).get(invitations(t.org.id))).body.items).toEqual([expect.objectContaining({ id: second.body.id, status: "expired" })]);
    expect((await browser.post(`/api/v1/invitations/${second.body.id}/accept`)).status).toBe(409);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })).toBe(0);
    // An expired invitation does not block a new one.
    expect((await api(t.admin.token).post(invitations(t.org.id), { email: user.email })).status).toBe(201);
  });

  it("two admins inviting the same email at once leave one pending invitation", async () => {
    const t = await createTenant();
    const email = `twice-${uniqueSuffix()}@example.test`;
    const answers = await Promise.all([api(t.admin.token).post(invitations(t.org.id), { email }), api(t.owner.token).post(invitations(t.org.id), { email })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(await db().orgInvitation.count({ where: { orgId: t.org.id, email, status: "pending" } })).toBe(1);
  });

  it("an accept racing a revoke ends either as a member with an accepted invitation or as neither", async () => {
    const t = await createTenant();
    const user = await createUser("invitee");
    const invited = await api(t.admin.token).post(invitations(t.org.id), { email: user.email });
    const browser = await browserOf(user);
    const [accept, revoke] = await Promise.all([
      browser.post(`/api/v1/invitations/${invited.body.id}/accept`),
      api(t.admin.token).delete(`/api/v1/invitations/${invited.body.id}`),
    ]);
    const row = await db().orgInvitation.findUniqueOrThrow({ where: { id: invited.body.id } });
    const isMember = (await db().orgMember.count({ where: { orgId: t.org.id, userId: user.id } })) === 1;
    if (accept.status === 200) {
      expect([row.status, isMember, revoke.status]).toEqual(["accepted", true, 409]);
    } else {
      expect([row.status, isMember, accept.status, revoke.status]).toEqual(["revoked", false, 409, 204]);
    }
  });

  it("inviting by email answers the same whether or not an account has that email", async () => {
    const t = await createTenant();
    const existing = await createUser("existing");
    const a = await api(t.admin.token).post(invitations(t.org.id), { email: existing.email });
    const b = await api(t.admin.token).post(invitations(t.org.id), { email: `nobody-${uniqueSuffix()}@example.test` });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
    expect(a.text).not.toContain(existing.id);
    const blank = { id: "", email: "", createdAt: "", expiresAt: "", acceptUrl: "" };
    expect({ ...a.body, ...blank }).toEqual({ ...b.body, ...blank });
  });

  it("an owner-role invitation no longer stands once its inviter is not an owner: accepting is 409, by id and by link", async () => {
    const t = await createTenant();
    // A second owner invites two people to the owner role, then is made an admin.
    const inviter = await makeMember({ orgId: t.org.id }, { role: "owner", label: "inviter", workspace: false });
    const inviterBrowser = await browserSessionOf(inviter);
    const invite = (email: string) => request("POST", invitations(t.org.id), null, { email, role: "owner" }, { headers: inviterBrowser });
    const existing = await createUser("invitee");
    const byId = await invite(existing.email);
    expect(byId.status).toBe(201);
    const newcomer = `new-owner-${uniqueSuffix()}@example.test`;
    const byLink = await invite(newcomer);
    expect(byLink.status).toBe(201);
    expect((await api(t.owner.token).patch(`${members(t.org.id)}/${inviter.id}`, { role: "admin" })).status).toBe(200);

    const accepted = await (await browserOf(existing)).post(`/api/v1/invitations/${byId.body.id}/accept`);
    expect(accepted.status).toBe(409);
    expect(accepted.body.detail).toContain("no longer an owner");
    const token = new URL(byLink.body.acceptUrl).pathname.split("/").pop()!;
    await expect(joinWithNewAccount(token, { name: "New", password: "a-long-enough-password" })).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("no longer an owner") });
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: existing.id } })).toBe(0);
    expect(await db().user.count({ where: { email: newcomer } })).toBe(0);
    expect(await db().orgInvitation.count({ where: { orgId: t.org.id, status: "pending" } })).toBe(2);

    // Made an owner again, the inviter's invitation stands again.
    expect((await api(t.owner.token).patch(`${members(t.org.id)}/${inviter.id}`, { role: "owner" })).status).toBe(200);
    expect((await (await browserOf(existing)).post(`/api/v1/invitations/${byId.body.id}/accept`)).status).toBe(200);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: existing.id, role: "owner" } })).toBe(1);
  });

  it("an owner-role invitation whose inviter's account was deleted no longer stands (issue 23); the instance credential's still does", async () => {
    const t = await createTenant();
    const inviter = await makeMember({ orgId: t.org.id }, { role: "owner", label: "deleted-inviter", workspace: false });
    const invitee = await createUser("orphan-invitee");
    const orphaned = await request("POST", invitations(t.org.id), null, { email: invitee.email, role: "owner" }, { headers: await browserSessionOf(inviter) });
    expect(orphaned.status).toBe(201);
    const newcomer = `orphan-link-${uniqueSuffix()}@example.test`;
    const byLink = await request("POST", invitations(t.org.id), null, { email: newcomer, role: "owner" }, { headers: await browserSessionOf(inviter) });
    expect(byLink.status).toBe(201);
    // The account goes (plain SQL: an operator's clean-up); the rows forget who sent them.
    await db().$executeRaw`DELETE FROM users WHERE id = ${inviter.id}`;
    expect((await db().orgInvitation.findFirstOrThrow({ where: { id: orphaned.body.id, orgId: t.org.id } })).invitedById).toBeNull();

    const accepted = await (await browserOf(invitee)).post(`/api/v1/invitations/${orphaned.body.id}/accept`);
    expect(accepted.status).toBe(409);
    expect(accepted.body.detail).toContain("no longer an owner");
    const token = new URL(byLink.body.acceptUrl).pathname.split("/").pop()!;
    await expect(joinWithNewAccount(token, { name: "New", password: "a-long-enough-password" })).rejects.toMatchObject({ code: "conflict" });
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: invitee.id } })).toBe(0);

    const instanceMade = await api("test-instance-key").post(invitations(t.org.id), { email: `instance-${uniqueSuffix()}@example.test`, role: "owner" });
    expect(instanceMade.status).toBe(201);
    const instanceToken = new URL(instanceMade.body.acceptUrl).pathname.split("/").pop()!;
    await expect(joinWithNewAccount(instanceToken, { name: "Owner", password: "a-long-enough-password" })).resolves.toMatchObject({ email: instanceMade.body.email });
  });

  it("only an owner invites to the owner role, and workspaces must be the organization's own", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const email = `x-${uniqueSuffix()}@example.test`;
    expect((await api(t.admin.token).post(invitations(t.org.id), { email, role: "owner" })).status).toBe(403);
    const foreign = await api(t.owner.token).post(invitations(t.org.id), { email, workspaceIds: [other.workspace.id] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toContainEqual(expect.objectContaining({ path: "workspaceIds" }));
    expect(await db().orgInvitation.count({ where: { orgId: t.org.id } })).toBe(0);
  });
});
