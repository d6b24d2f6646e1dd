import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { assertMay } from "@/lib/permissions/guards";
import type { OrgRoleName } from "@/lib/permissions/table";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";

/**
 * Building blocks shared by the organization-membership changes (lib/orgs/members.ts) and user
 * creation (lib/users/users.ts). All of them run inside the caller's transaction.
 */

type Tx = Prisma.TransactionClient;
export type { OrgRoleName };

export const orgMemberSelect = {
  id: true,
  orgId: true,
  userId: true,
  role: true,
  createdAt: true,
  user: { select: { email: true, name: true } },
} as const;

export interface OrgMemberView {
  id: string;
  orgId: string;
  userId: string;
  email: string;
  name: string | null;
  role: OrgRoleName;
  createdAt: Date;
}

export function toOrgMemberView(row: Prisma.OrgMemberGetPayload<{ select: typeof orgMemberSelect }>): OrgMemberView {
  const { user, ...rest } = row;
  return { ...rest, email: user.email, name: user.name };
}

/**
 * Proves the caller manages the organization (scope inside the query), then locks its row so
 * membership changes of one organization run one at a time (the "at least one owner" rule
 * holds under concurrency). `what` names the object in the 404, so every miss reads the same.
 */
export async function lockManagedOrg(tx: Tx, caller: Caller, orgId: string, what = "organization"): Promise<void> {
  const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError(what);
  await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId} FOR UPDATE`;
}

/**
 * Granting, changing or removing the owner role is for owners (and the instance credential); so
 * is anything else that reaches an owner (`message` says what was refused). The permission
 * table's `owners.manage` decides, with the caller's role as it acts (a key's `maxRole` applied).
 */
export async function assertOwnerCaller(tx: Tx, caller: Caller, orgId: string, message = "Only an owner of the organization can grant, change or remove the owner role."): Promise<void> {
  await assertMay(tx, caller, orgId, "owners.manage", message);
}

/** 403 unless the caller may reach `userId` of `orgId`: anyone it manages, but an owner only with `owners.manage`. */
export async function assertMayReachMember(tx: Tx, caller: Caller, orgId: string, userId: string, message: string): Promise<void> {
  if (caller.kind === "instance" || callerUserIdOf(caller) === userId) return;
  const target = await tx.orgMember.count({ where: { orgId, userId, role: "owner" } });
  if (target > 0) await assertOwnerCaller(tx, caller, orgId, message);
}

const callerUserIdOf = (caller: Caller): string | null => (caller.kind === "user" ? caller.userId : null);

/** Refuses a change that would leave the organization without an owner (rolls the transaction back). */
export async function assertOwnerRemains(tx: Tx, orgId: string): Promise<void> {
  const owners = await tx.orgMember.count({ where: { orgId, role: "owner" } });
  if (owners === 0) throw new ConflictError("An organization must keep at least one owner.");
}

/** Adds a user to an organization the caller was proven to manage; 409 if already a member. */
export async function insertOrgMember(tx: Tx, caller: Caller, orgId: string, userId: string, role: OrgRoleName): Promise<OrgMemberView> {
  if (role === "owner") await assertOwnerCaller(tx, caller, orgId);
  const existing = await tx.orgMember.findFirst({ where: { orgId, userId }, select: { id: true } });
  if (existing) throw new ConflictError("That user is already a member of the organization.");
  const row = await tx.orgMember.create({ data: { orgId, userId, role }, select: orgMemberSelect });
  await configVersion.bump(tx, orgId);
  await recordAuditEvent(caller, { orgId, action: "org.member.add", targetType: "user", targetId: userId, data: { role } }, tx);
  return toOrgMemberView(row);
}
