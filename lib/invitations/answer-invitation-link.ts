import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { hashPassword } from "@/lib/auth/password";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import type { OrgMemberView, OrgRoleName } from "@/lib/orgs/member-guards";
import { acceptInvitation, assertAnswerable, assertOwnerInvitationStands, joinOrg } from "@/lib/invitations/answer-invitation";
import { isExpired } from "@/lib/invitations/invitation-view";
import { hashInvitationToken, isInvitationTokenShape } from "@/lib/invitations/invitation-link";
import type { JoinWithNewAccountBody } from "@/lib/invitations/schemas";

/**
 * The invitation link's side (`/invite/<secret>`): what the link invites to, accepting it as
 * the signed-in person it names, or — when nobody has an account with its email yet — making
 * that account and joining in one step. The link works once: after any answer (or a revoke) it
 * reads `used`/`revoked`, after `expiresAt` `expired`, and each of those is refused.
 */

type Tx = Prisma.TransactionClient;

export type InvitationLinkState = "pending" | "expired" | "used" | "revoked";

export interface InvitationLinkView {
  id: string;
  state: InvitationLinkState;
  orgName: string;
  email: string;
  role: OrgRoleName;
  workspaceNames: string[];
  invitedBy: string | null;
  expiresAt: Date;
  /** Whether an account has the invited email (then it signs in to accept; else it is made here). */
  accountExists: boolean;
}

const linkSelect = {
  id: true, orgId: true, email: true, role: true, workspaceIds: true, status: true, expiresAt: true,
  org: { select: { name: true } },
  invitedBy: { select: { email: true, name: true } },
} as const satisfies Prisma.OrgInvitationSelect;

async function findByToken(tx: Tx, token: string) {
  if (!isInvitationTokenShape(token)) return null;
  return tx.orgInvitation.findUnique({ where: { tokenHash: hashInvitationToken(token) }, select: linkSelect });
}

function stateOf(row: { status: string; expiresAt: Date }): InvitationLinkState {
  if (row.status === "revoked") return "revoked";
  if (row.status !== "pending") return "used";
  return isExpired(row) ? "expired" : "pending";
}

/** What the link invites to, or null when it names no invitation (a mistyped or made-up link). */
export async function readInvitationLink(token: string): Promise<InvitationLinkView | null> {
  const row = await findByToken(db(), token);
  if (!row) return null;
  const [workspaces, account] = await Promise.all([
    db().workspace.findMany({ where: { orgId: row.orgId, id: { in: row.workspaceIds } }, orderBy: { name: "asc" }, select: { name: true } }),
    db().user.findFirst({ where: { email: { equals: row.email, mode: "insensitive" } }, select: { id: true } }),
  ]);
  return {
    id: row.id,
    state: stateOf(row),
    orgName: row.org.name,
    email: row.email,
    role: row.role,
    workspaceNames: workspaces.map((w) => w.name),
    invitedBy: row.invitedBy ? (row.invitedBy.name ?? row.invitedBy.email) : null,
    expiresAt: row.expiresAt,
    accountExists: Boolean(account),
  };
}

/** The signed-in person accepts the link's invitation (it must be theirs: same email). */
export async function acceptInvitationLink(caller: Caller, token: string): Promise<OrgMemberView> {
  const row = await findByToken(db(), token);
  if (!row) throw new NotFoundError("invitation");
  return acceptInvitation(caller, row.id);
}

/**
 * Nobody has the invited email yet: the link's holder chooses a name and password, and the
 * account is made and joins the organization (and the invited workspaces) in one transaction.
 * The link was sent to that email, so holding it is the proof of owning the address.
 */
export async function joinWithNewAccount(token: string, input: JoinWithNewAccountBody): Promise<{ email: string }> {
  const passwordHash = await hashPassword(input.password);
  return db().$transaction(async (tx) => {
    const found = await findByToken(tx, token);
    if (!found) throw new NotFoundError("invitation");
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${found.orgId} FOR UPDATE`;
    const invitation = await tx.orgInvitation.findFirst({ where: { id: found.id, orgId: found.orgId }, select: { status: true, expiresAt: true, role: true, invitedById: true, invitedByInstance: true } });
    if (!invitation) throw new NotFoundError("invitation");
    assertAnswerable(invitation);
    await assertOwnerInvitationStands(tx, found.orgId, invitation);
    const taken = await tx.user.findFirst({ where: { email: { equals: found.email, mode: "insensitive" } }, select: { id: true } });
    if (taken) throw new ConflictError("An account with this email exists already: sign in with it to accept.");
    const user = await tx.user.create({ data: { email: found.email, name: input.name, passwordHash }, select: { id: true } });
    const caller: Caller = { kind: "user", userId: user.id, apiKey: null };
    // Conditional, like accepting by id: a revoke does not take the org's lock, so it may commit
    // after the read above; then nothing was accepted and no account may be made.
    const { count } = await tx.orgInvitation.updateMany({ where: { id: found.id, orgId: found.orgId, status: "pending", expiresAt: { gt: new Date() } }, data: { status: "accepted", respondedAt: new Date() } });
    if (count === 0) throw new ConflictError("This invitation was revoked or answered meanwhile.");
    const member = await joinOrg(tx, found.orgId, user.id, found.role, found.workspaceIds);
    await recordAuditEvent(caller, { orgId: found.orgId, action: "user.create", targetType: "user", targetId: user.id, data: { withPassword: true, invitationId: found.id } }, tx);
    await recordAuditEvent(caller, { orgId: found.orgId, action: "org.invitation.accept", targetType: "invitation", targetId: found.id }, tx);
    await recordAuditEvent(caller, { orgId: found.orgId, action: "org.member.add", targetType: "user", targetId: user.id, data: { role: member.role, invitationId: found.id } }, tx);
    await configVersion.bump(tx, found.orgId);
    return { email: found.email };
  });
}
