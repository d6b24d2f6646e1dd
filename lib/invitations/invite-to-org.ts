import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { ConflictError, ValidationError } from "@/lib/errors";
import { callerUserId } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertOwnerCaller, lockManagedOrg } from "@/lib/orgs/member-guards";
import { type InvitationView, invitationSelect, toInvitationView } from "@/lib/invitations/invitation-view";
import type { CreateInvitationBody } from "@/lib/invitations/schemas";
import { invitationLink, newInvitationToken } from "@/lib/invitations/invitation-link";
import { sendInvitationEmail } from "@/lib/invitations/send-invitation-email";

type Tx = Prisma.TransactionClient;

/** An unanswered invitation stops working after a week; the admin can invite again. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The distinct workspace ids, each of this organization (else 422 on `workspaceIds`). */
async function assertOrgWorkspaces(tx: Tx, orgId: string, ids: string[]): Promise<string[]> {
  const workspaceIds = [...new Set(ids)];
  const found = workspaceIds.length ? await tx.workspace.count({ where: { orgId, id: { in: workspaceIds } } }) : 0;
  if (found !== workspaceIds.length) throw new ValidationError([{ path: "workspaceIds", message: "Every workspace must belong to this organization." }]);
  return workspaceIds;
}

/** A new account made by an admin joins the named workspaces of the organization at once. */
export async function joinWorkspaces(tx: Tx, orgId: string, userId: string, ids: string[]): Promise<void> {
  const workspaceIds = await assertOrgWorkspaces(tx, orgId, ids);
  await tx.workspaceMember.createMany({ data: workspaceIds.map((workspaceId) => ({ orgId, workspaceId, userId })), skipDuplicates: true });
}

/**
 * Invites a person by email to an organization the caller was proven to manage (inside the
 * caller's transaction, after lockManagedOrg, so two invitations to one email cannot race).
 * Nothing here looks at whether an account has the email: the answer is the same either way,
 * and only the person signed in with that email can accept. 409 when they are already a
 * member (the admin sees the member list anyway) or already hold a pending invitation.
 */
export async function insertInvitation(tx: Tx, caller: Caller, orgId: string, input: CreateInvitationBody, tokenHash?: string): Promise<InvitationView> {
  assertCredentialMay(caller, "org.members.manage");
  if (input.role === "owner") await assertOwnerCaller(tx, caller, orgId);
  const workspaceIds = await assertOrgWorkspaces(tx, orgId, input.workspaceIds);
  const member = await tx.orgMember.findFirst({ where: { orgId, user: { email: { equals: input.email, mode: "insensitive" } } }, select: { id: true } });
  if (member) throw new ConflictError("That person is already a member of the organization.");
  const open = await tx.orgInvitation.findFirst({ where: { orgId, email: input.email, status: "pending", expiresAt: { gt: new Date() } }, select: { id: true } });
  if (open) throw new ConflictError("That email already has a pending invitation to this organization.");
  const row = await tx.orgInvitation.create({
    data: { orgId, email: input.email, role: input.role, workspaceIds, tokenHash, invitedById: callerUserId(caller), invitedByInstance: caller.kind === "instance", expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
    select: invitationSelect,
  });
  await recordAuditEvent(caller, {
    orgId,
    action: "org.invitation.create",
    targetType: "invitation",
    targetId: row.id,
    data: { email: row.email, role: row.role, workspaceIds },
  }, tx);
  return toInvitationView(row);
}

/** A new invitation with its link (shown once: only its hash is kept) and whether it was emailed. */
export type CreatedInvitation = InvitationView & { acceptUrl: string; emailSent: boolean };

/**
 * `POST /orgs/{orgId}/invitations`: an owner/admin invites someone by email. The answer carries
 * the link to accept (`baseUrl` is the public origin); it is emailed to the person when SMTP is
 * configured, after the invitation is committed (a slow mail server holds no lock).
 */
export async function createInvitation(caller: Caller, orgId: string, input: CreateInvitationBody, baseUrl: string): Promise<CreatedInvitation> {
  const { token, tokenHash } = newInvitationToken();
  const invitation = await db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId);
    return insertInvitation(tx, caller, orgId, input, tokenHash);
  });
  const acceptUrl = invitationLink(baseUrl, token);
  return { ...invitation, acceptUrl, emailSent: await sendInvitationEmail(invitation, acceptUrl) };
}
