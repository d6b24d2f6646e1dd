import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { type Page, type PageQuery, pageOf } from "@/lib/api/pagination";
import { type InvitationView, invitationSelect, toInvitationView } from "@/lib/invitations/invitation-view";

/** The admins' side of invitations: the open list of an organization, and revoking one. */

const INVITATION = "invitation";

/** Unanswered invitations of an organization the caller manages (expired ones read `expired`), oldest first. */
export async function listOrgInvitations(caller: Caller, orgId: string, page: PageQuery): Promise<Page<InvitationView>> {
  assertCredentialMay(caller, "org.members.manage");
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  return pageOf(page, async (args) =>
    (await db().orgInvitation.findMany({
      where: { orgId, status: "pending", org: orgsManagedBy(caller) },
      orderBy: { id: "asc" },
      select: invitationSelect,
      ...args,
    })).map(toInvitationView),
  );
}

/** Withdraws a pending (or expired) invitation: it can no longer be accepted. An answered one is a 409. */
export async function revokeInvitation(caller: Caller, invitationId: string): Promise<void> {
  assertCredentialMay(caller, "org.members.manage");
  await db().$transaction(async (tx) => {
    const invitation = await tx.orgInvitation.findFirst({
      where: { id: invitationId, org: orgsManagedBy(caller) },
      select: { id: true, orgId: true, email: true, status: true },
    });
    if (!invitation) throw new NotFoundError(INVITATION);
    const { count } = await tx.orgInvitation.updateMany({
      where: { id: invitation.id, orgId: invitation.orgId, status: "pending" },
      data: { status: "revoked", respondedAt: new Date() },
    });
    if (count === 0) throw new ConflictError(`The invitation was already ${invitation.status === "pending" ? "answered" : invitation.status}.`);
    await recordAuditEvent(caller, {
      orgId: invitation.orgId,
      action: "org.invitation.revoke",
      targetType: "invitation",
      targetId: invitation.id,
      data: { email: invitation.email },
    }, tx);
  });
}
