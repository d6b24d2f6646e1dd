import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { verifyPassword } from "@/lib/auth/password";
import { acceptInvitationLink, joinWithNewAccount, readInvitationLink } from "@/lib/invitations/answer-invitation-link";
import { api } from "@/tests/helpers/api";
import { createTenant, createUser, createWorkspace, uniqueSuffix } from "@/tests/helpers/factories";
import { type SmtpServer, startSmtpServer } from "@/tests/helpers/smtp-server";

/**
 * "An admin invites by email (a link to accept; email sent when SMTP is configured, the link
 * shown to copy otherwise); an invitation names the org role and the workspaces to join."
 */

const invitations = (orgId: string) => `/api/v1/orgs/${orgId}/invitations`;
const tokenOf = (acceptUrl: string) => new URL(acceptUrl).pathname.split("/").pop()!;
const PASSWORD = "a-long-enough-password";

let smtp: SmtpServer | null = null;
afterEach(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  await smtp?.close();
  smtp = null;
});

describe("invitation links and email", () => {
  it("with SMTP configured the link is emailed to the invited address, from MAIL_FROM", async () => {
    smtp = await startSmtpServer();
    // Email goes out only with SMTP configured (a default install has none): the test's SMTP server.
    process.env.SMTP_URL = smtp.url;
    process.env.MAIL_FROM = "Switchboard <switchboard@example.test>";
    const t = await createTenant();
    const email = `new-${uniqueSuffix()}@example.test`;
    const res = await api(t.admin.token).post(invitations(t.org.id), { email, role: "admin" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, role: "admin", status: "pending", emailSent: true, acceptUrl: expect.stringMatching(/^http:\/\/localhost:3000\/invite\/[\w-]{43}$/) });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.from).toBe("switchboard@example.test");
    expect(mail.to).toEqual([email]);
    expect(mail.data.replace(/=\r\n/g, "")).toContain(res.body.acceptUrl);
    // Only the secret's hash is stored: the link cannot be read back from the database.
    const row = await db().orgInvitation.findFirstOrThrow({ where: { id: res.body.id, orgId: t.org.id } });
    expect(JSON.stringify(row)).not.toContain(tokenOf(res.body.acceptUrl));
    expect((await api(t.admin.token).get(invitations(t.org.id))).body.items[0]).not.toHaveProperty("acceptUrl");
  });

  it("without SMTP (or with an unreachable server) nothing is sent and the answer carries the link to copy", async () => {
    const t = await createTenant();
    const plain = await api(t.admin.token).post(invitations(t.org.id), { email: `a-${uniqueSuffix()}@example.test` });
    expect(plain.body).toMatchObject({ emailSent: false, acceptUrl: expect.stringContaining("/invite/") });
    // An SMTP server nobody listens on: the unreachable case.
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    const unreachable = await api(t.admin.token).post(invitations(t.org.id), { email: `b-${uniqueSuffix()}@example.test` });
    expect(unreachable.status).toBe(201);
    expect(unreachable.body.emailSent).toBe(false);
  });

  it("someone without an account makes one with the link and joins with the invited role and workspaces; the link then reads used", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    const email = `join-${uniqueSuffix()}@example.test`;
    const res = await api(t.admin.token).post(invitations(t.org.id), { email, role: "admin", workspaceIds: [second.id] });
    const token = tokenOf(res.body.acceptUrl);
    expect(await readInvitationLink(token)).toMatchObject({ state: "pending", email, role: "admin", accountExists: false, workspaceNames: [expect.any(String)] });

    await joinWithNewAccount(token, { name: "New Person", password: PASSWORD });
    const user = await db().user.findFirstOrThrow({ where: { email } });
    expect(await verifyPassword(PASSWORD, user.passwordHash!)).toBe(true);
    expect(await db().orgMember.findFirst({ where: { orgId: t.org.id, userId: user.id }, select: { role: true } })).toEqual({ role: "admin" });
    expect(await db().workspaceMember.count({ where: { orgId: t.org.id, workspaceId: second.id, userId: user.id } })).toBe(1);

    expect((await readInvitationLink(token))?.state).toBe("used");
    await expect(joinWithNewAccount(token, { name: "Again", password: PASSWORD })).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("already accepted") });
  });

  it("an expired link is refused and reads expired; a made-up one names nothing", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).post(invitations(t.org.id), { email: `late-${uniqueSuffix()}@example.test` });
    await db().orgInvitation.updateMany({ where: { id: res.body.id, orgId: t.org.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const token = tokenOf(res.body.acceptUrl);
    expect((await readInvitationLink(token))?.state).toBe("expired");
    await expect(joinWithNewAccount(token, { name: "Late", password: PASSWORD })).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("expired") });
    expect(await readInvitationLink("x".repeat(43))).toBeNull();
    expect(await readInvitationLink("../../etc")).toBeNull();
  });

  it("an existing account accepts its link signed in as itself; anyone else is told it is not theirs (404)", async () => {
    const t = await createTenant();
    const invitee = await createUser("invitee");
    const stranger = await createUser("stranger");
    const res = await api(t.admin.token).post(invitations(t.org.id), { email: invitee.email, workspaceIds: [t.workspace.id] });
    const token = tokenOf(res.body.acceptUrl);
    expect((await readInvitationLink(token))?.accountExists).toBe(true);
    await expect(acceptInvitationLink({ kind: "user", userId: stranger.id, apiKey: null }, token)).rejects.toMatchObject({ code: "not_found" });
    await expect(joinWithNewAccount(token, { name: "Imposter", password: PASSWORD })).rejects.toMatchObject({ code: "conflict" });
    const member = await acceptInvitationLink({ kind: "user", userId: invitee.id, apiKey: null }, token);
    expect(member).toMatchObject({ orgId: t.org.id, userId: invitee.id, role: "member" });
    expect(await db().workspaceMember.count({ where: { orgId: t.org.id, workspaceId: t.workspace.id, userId: invitee.id } })).toBe(1);
  });

  it("adding someone to the organization also puts them in the chosen workspaces (or names them in the invitation)", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.org.id);
    const email = `added-${uniqueSuffix()}@example.test`;
    const created = await api(t.admin.token).post("/api/v1/users", { email, orgId: t.org.id, workspaceIds: [second.id] });
    expect(created.status).toBe(201);
    expect(await db().workspaceMember.count({ where: { orgId: t.org.id, workspaceId: second.id, userId: created.body.id } })).toBe(1);

    const existing = await createUser("existing");
    const invited = await api(t.admin.token).post("/api/v1/users", { email: existing.email, orgId: t.org.id, workspaceIds: [second.id] });
    expect(invited.status).toBe(202);
    expect(invited.body.workspaceIds).toEqual([second.id]);

    const other = await createTenant();
    const refusedEmail = `x-${uniqueSuffix()}@example.test`;
    const refused = await api(t.admin.token).post("/api/v1/users", { email: refusedEmail, orgId: t.org.id, workspaceIds: [other.workspace.id] });
    expect(refused.status).toBe(422);
    expect(await db().user.count({ where: { email: refusedEmail } })).toBe(0);
  });
});
