import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { hashPassword } from "@/lib/auth/password";
import { ConflictError, ForbiddenError, ValidationError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { insertOrgMember, lockManagedOrg } from "@/lib/orgs/member-guards";
import type { CreateUserBody } from "@/lib/users/schemas";
import { insertInvitation, joinWorkspaces } from "@/lib/invitations/invite-to-org";
import type { InvitationView } from "@/lib/invitations/invitation-view";

const userSelect = { id: true, email: true, name: true } as const;
export type UserView = { id: string; email: string; name: string | null };

/**
 * The organization a new user joins: the one named by `orgId` (the caller must manage it), or
 * else the API key's organization, or the only one the caller manages. The instance credential
 * may create a user without any organization.
 */
async function targetOrgId(caller: Caller, orgId: string | undefined): Promise<string | null> {
  if (caller.kind === "instance" && !orgId) return null;
  const managed = await db().organization.findMany({
    where: { AND: [orgsManagedBy(caller), orgId ? { id: orgId } : {}] },
    select: { id: true },
    take: 2,
  });
  if (orgId && managed.length === 0) {
    throw new ValidationError([{ path: "orgId", message: "No organization you manage has this id." }]);
  }
  if (managed.length === 0) {
    throw new ForbiddenError("Only the instance credential or an organization owner/admin can create users.");
  }
  if (managed.length > 1) {
    throw new ValidationError([{ path: "orgId", message: "You manage several organizations; name one with orgId." }]);
  }
  return managed[0].id;
}

/** The new account (already a member when an organization was named), or the invitation an existing account has to accept. */
export type CreateUserResult = { kind: "user"; user: UserView } | { kind: "invitation"; invitation: InvitationView };

/**
 * Creates a user (password hashed with scrypt, never returned). An org owner/admin — or the
 * instance credential naming `orgId` — also adds the user to that organization as a member.
 * If the email already has an account, its name and password are left untouched, and an
 * owner/admin gets a pending invitation for that email instead of a membership (the account's
 * user must consent); the answer then names only the invitation, never the account's id or
 * name. The instance credential adds an existing account at once. Without an organization an
 * existing email is a 409, as is adding someone who is already a member.
 */
export async function createUser(caller: Caller, input: CreateUserBody): Promise<CreateUserResult> {
  const orgId = await targetOrgId(caller, input.orgId);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db().$transaction(async (tx) => {
    if (orgId) await lockManagedOrg(tx, caller, orgId);
    const existing = await tx.user.findFirst({ where: { email: { equals: input.email, mode: "insensitive" } }, select: userSelect });
    if (existing && !orgId) throw new ConflictError("A user with that email already exists.");
    if (existing && orgId && caller.kind === "user") {
      return { kind: "invitation", invitation: await insertInvitation(tx, caller, orgId, { email: existing.email, role: "member", workspaceIds: input.workspaceIds ?? [] }) };
    }
    const user = existing ?? (await tx.user.create({ data: { email: input.email, name: input.name ?? null, passwordHash }, select: userSelect }));
    if (!existing) {
      await recordAuditEvent(caller, { orgId, action: "user.create", targetType: "user", targetId: user.id, data: { withPassword: Boolean(passwordHash) } }, tx);
    }
    if (orgId) {
      await insertOrgMember(tx, caller, orgId, user.id, "member");
      await joinWorkspaces(tx, orgId, user.id, input.workspaceIds ?? []);
    }
    return { kind: "user", user };
  });
}
