import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { dropPersonConnections } from "@/lib/connectors/upstream-auth/connections";
import { errorText, logger } from "@/lib/log";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { revokeKeysAndDescendants } from "@/lib/api-keys/revoke-keys";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import type { AddOrgMemberBody, OrgMemberListQuery, UpdateOrgMemberBody } from "@/lib/orgs/member-schemas";
import { insertInvitation } from "@/lib/invitations/invite-to-org";
import type { InvitationView } from "@/lib/invitations/invitation-view";
import {
  assertOwnerCaller,
  assertOwnerRemains,
  insertOrgMember,
  lockManagedOrg,
  orgMemberSelect,
  type OrgMemberView,
  toOrgMemberView,
} from "@/lib/orgs/member-guards";

export type { OrgMemberView } from "@/lib/orgs/member-guards";

/** One 404 for "no such organization", "not yours" and "no such member". */
const MEMBER = "organization member";

/** Lists the members of an organization the caller manages, oldest id first unless sorted. */
export async function listOrgMembers(caller: Caller, orgId: string, query: ListArgs<OrgMemberListQuery>): Promise<Page<OrgMemberView>> {
  assertCredentialMay(caller, "org.members.read");
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  const where: Prisma.OrgMemberWhereInput = { orgId, org: orgsManagedBy(caller), ...searchIn(query.q, (m) => [{ user: { email: m } }, { user: { name: m } }]) };
  const orderBy = listOrder(query, [{ id: "asc" }], { email: "user.email" }) as Prisma.OrgMemberOrderByWithRelationInput[];
  return pageOf(query, async (args) =>
    (await db().orgMember.findMany({
      where,
      orderBy,
      select: orgMemberSelect,
      ...args,
    })).map(toOrgMemberView),
  );
}

/** Either the membership made at once, or the invitation the user has to accept first. */
export type AddOrgMemberResult = { kind: "member"; member: OrgMemberView } | { kind: "invitation"; invitation: InvitationView };

/**
 * Adds an existing user to an organization. Unknown user → 422 on `userId`; already a member →
 * 409. An account never joins an organization without its user's consent ("Adding an account
 * that already exists needs that user's consent — an invitation they accept"), so an owner or
 * admin gets a pending invitation for the user's email instead; only the instance credential,
 * which operates the whole instance, adds the member at once.
 */
export async function addOrgMember(caller: Caller, orgId: string, input: AddOrgMemberBody): Promise<AddOrgMemberResult> {
  assertCredentialMay(caller, "org.members.manage");
  return db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId);
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
    if (!user) throw new ValidationError([{ path: "userId", message: "No user has this id." }]);
    if (caller.kind === "instance") return { kind: "member", member: await insertOrgMember(tx, caller, orgId, user.id, input.role) };
    const invitation = await insertInvitation(tx, caller, orgId, { email: user.email, role: input.role, workspaceIds: [] });
    return { kind: "invitation", invitation };
  });
}

/** Changes a member's role. Only owners touch the owner role; the last owner cannot step down (409). */
export async function updateOrgMember(caller: Caller, orgId: string, userId: string, input: UpdateOrgMemberBody): Promise<OrgMemberView> {
  assertCredentialMay(caller, "org.members.manage");
  return db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId, MEMBER);
    const member = await tx.orgMember.findFirst({ where: { orgId, userId, org: orgsManagedBy(caller) }, select: { id: true, role: true } });
    if (!member) throw new NotFoundError(MEMBER);
    if (member.role === "owner" || input.role === "owner") await assertOwnerCaller(tx, caller, orgId);
    const row = await tx.orgMember.update({ where: { id: member.id, orgId, org: orgsManagedBy(caller) }, data: { role: input.role }, select: orgMemberSelect });
    await assertOwnerRemains(tx, orgId);
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(caller, { orgId, action: "org.member.update", targetType: "user", targetId: userId, data: { from: member.role, to: input.role } }, tx);
    return toOrgMemberView(row);
  });
}

/**
 * Removes a user from an organization: also from each of its workspaces, and every API key
 * the user holds in it is revoked at once, with the keys those issued. The last owner cannot be removed (409).
 */
export async function removeOrgMember(caller: Caller, orgId: string, userId: string): Promise<void> {
  assertCredentialMay(caller, "org.members.manage");
  await db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId, MEMBER);
    const member = await tx.orgMember.findFirst({ where: { orgId, userId, org: orgsManagedBy(caller) }, select: { id: true, role: true } });
    if (!member) throw new NotFoundError(MEMBER);
    if (member.role === "owner") await assertOwnerCaller(tx, caller, orgId);
    await tx.orgMember.delete({ where: { id: member.id, orgId, org: orgsManagedBy(caller) } });
    await assertOwnerRemains(tx, orgId);
    const workspaces = await tx.workspaceMember.deleteMany({ where: { orgId, userId } });
    const held = await tx.apiKey.findMany({ where: { orgId, userId, revokedAt: null }, select: { id: true } });
    const revokedApiKeys = await revokeKeysAndDescendants(tx, orgId, held.map((k) => k.id));
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(
      caller,
      { orgId, action: "org.member.remove", targetType: "user", targetId: userId, data: { role: member.role, workspaceMemberships: workspaces.count, revokedApiKeys } },
      tx,
    );
  });
  // Their upstream connections go too, revoked upstream (after the commit: revocation is a network call).
  await dropPersonConnections(orgId, userId).catch((e) => logger.warn({ orgId, err: errorText(e) }, "removing a leaver's upstream connections failed"));
}
