import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, type PageQuery, pageOf } from "@/lib/api/pagination";
import { orgMemberSelect, type OrgMemberView, type OrgRoleName, toOrgMemberView } from "@/lib/orgs/member-guards";
import { type InvitationView, invitationSelect, isExpired, toInvitationView } from "@/lib/invitations/invitation-view";

/**
 * The invited person's side: their pending invitations, accept, decline. An invitation is the
 * caller's when its email is their account's email; anyone else's (another person's, another
 * organization's, a missing one) is the same 404. Answering is consent, so it takes the
 * person's own browser session: an API key may have been issued by an org admin, who must not
 * be able to accept on the person's behalf.
 */

type Tx = Prisma.TransactionClient;
const INVITATION = "invitation";

function requireBrowserSession(caller: Caller): string {
  if (caller.kind !== "user" || caller.apiKey) {
    throw new ForbiddenError("Only the invited person, signed in to the console, can see and answer their invitations (not with an API key).");
  }
  return caller.userId;
}

async function emailOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) throw new NotFoundError(INVITATION);
  return user.email.toLowerCase();
}

/** The caller's invitation with this id, or the 404 a missing id gets. */
async function findOwnInvitation(tx: Tx, caller: Caller, invitationId: string) {
  if (caller.kind !== "user") throw new NotFoundError(INVITATION);
  const email = await emailOf(tx, caller.userId);
  const invitation = await tx.orgInvitation.findFirst({
    where: { id: invitationId, email },
    select: { id: true, orgId: true, role: true, workspaceIds: true, status: true, expiresAt: true, invitedById: true, invitedByInstance: true },
  });
  if (!invitation) throw new NotFoundError(INVITATION);
  return invitation;
}

export function assertAnswerable(invitation: { status: string; expiresAt: Date }): void {
  if (isExpired(invitation)) throw new ConflictError("This invitation has expired; ask the organization for a new one.");
  if (invitation.status !== "pending") throw new ConflictError(`This invitation was already ${invitation.status}.`);
}

/**
 * An owner-role invitation carries its inviter's authority: only an owner may grant the owner
 * role. Once the inviter is no longer an owner of the organization (demoted, removed, or their
 * account deleted — the row then forgets who sent it), the invitation no longer stands. One the
 * instance credential made still does.
 */
export async function assertOwnerInvitationStands(tx: Tx, orgId: string, invitation: { role: string; invitedById: string | null; invitedByInstance: boolean }): Promise<void> {
  if (invitation.role !== "owner" || invitation.invitedByInstance) return;
  const stillOwner = invitation.invitedById ? await tx.orgMember.count({ where: { orgId, userId: invitation.invitedById, role: "owner" } }) : 0;
  if (stillOwner === 0) {
    throw new ConflictError("This invitation would make you an owner, but the person who sent it is no longer an owner of the organization. Ask an owner for a new invitation.");
  }
}

/** The signed-in person's unanswered, unexpired invitations, oldest first. */
export async function listMyInvitations(caller: Caller, page: PageQuery): Promise<Page<InvitationView>> {
  const userId = requireBrowserSession(caller);
  const email = await emailOf(db(), userId);
  return pageOf(page, async (args) =>
    (await db().orgInvitation.findMany({
      where: { email, status: "pending", expiresAt: { gt: new Date() } },
      orderBy: { id: "asc" },
      select: invitationSelect,
      ...args,
    })).map(toInvitationView),
  );
}

/** How many invitations wait for the signed-in person's answer (the navigation shows it). */
export async function countMyInvitations(caller: Caller): Promise<number> {
  const userId = requireBrowserSession(caller);
  return db().orgInvitation.count({ where: { email: await emailOf(db(), userId), status: "pending", expiresAt: { gt: new Date() } } });
}

/** Joins the organization with the invited role (and the invited workspaces that still exist). */
export async function joinOrg(tx: Tx, orgId: string, userId: string, role: OrgRoleName, workspaceIds: string[]): Promise<OrgMemberView> {
  const existing = await tx.orgMember.findFirst({ where: { orgId, userId }, select: orgMemberSelect });
  const member = existing ?? (await tx.orgMember.create({ data: { orgId, userId, role }, select: orgMemberSelect }));
  const workspaces = await tx.workspace.findMany({ where: { orgId, id: { in: workspaceIds } }, select: { id: true } });
  await tx.workspaceMember.createMany({ data: workspaces.map((w) => ({ orgId, workspaceId: w.id, userId })), skipDuplicates: true });
  return toOrgMemberView(member);
}

/** Accepts: the caller becomes a member. Expired or already answered → 409. */
export async function acceptInvitation(caller: Caller, invitationId: string): Promise<OrgMemberView> {
  return db().$transaction(async (tx) => {
    const found = await findOwnInvitation(tx, caller, invitationId);
    const userId = requireBrowserSession(caller);
    // The org's row lock orders this with membership changes and a concurrent revoke.
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${found.orgId} FOR UPDATE`;
    const invitation = await findOwnInvitation(tx, caller, invitationId);
    assertAnswerable(invitation);
    await assertOwnerInvitationStands(tx, invitation.orgId, invitation);
    // Conditional, like revoke's: whichever of the two commits first wins, the other gets its 409.
    const { count } = await tx.orgInvitation.updateMany({
      where: { id: invitation.id, orgId: invitation.orgId, status: "pending", expiresAt: { gt: new Date() } },
      data: { status: "accepted", respondedAt: new Date() },
    });
    if (count === 0) throw new ConflictError("This invitation was revoked or answered meanwhile.");
    const member = await joinOrg(tx, invitation.orgId, userId, invitation.role, invitation.workspaceIds);
    const audit = { orgId: invitation.orgId, targetId: invitation.id, targetType: "invitation" };
    await recordAuditEvent(caller, { ...audit, action: "org.invitation.accept" }, tx);
    await configVersion.bump(tx, invitation.orgId);
    await recordAuditEvent(caller, { orgId: invitation.orgId, action: "org.member.add", targetType: "user", targetId: userId, data: { role: member.role, invitationId: invitation.id } }, tx);
    return member;
  });
}

/** Declines: nothing changes but the invitation, which can no longer be accepted. */
export async function declineInvitation(caller: Caller, invitationId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const invitation = await findOwnInvitation(tx, caller, invitationId);
    requireBrowserSession(caller);
    assertAnswerable(invitation);
    const { count } = await tx.orgInvitation.updateMany({
      where: { id: invitation.id, orgId: invitation.orgId, status: "pending" },
      data: { status: "declined", respondedAt: new Date() },
    });
    if (count === 0) throw new ConflictError("This invitation was answered or revoked meanwhile.");
    await recordAuditEvent(caller, { orgId: invitation.orgId, action: "org.invitation.decline", targetType: "invitation", targetId: invitation.id }, tx);
  });
}
