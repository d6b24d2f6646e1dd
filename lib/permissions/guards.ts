import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { ForbiddenError } from "@/lib/errors";
import { type Action, type CredentialKind, kindAllows, type OrgRoleName } from "@/lib/permissions/table";

/**
 * The permission table applied to a caller. The table is per kind of credential; these say which
 * kinds a caller is (given its role in the organization at hand) and refuse with 403 what its
 * kinds do not all allow. Reach (which organization, workspace, server) stays in the scoped
 * queries; these decide what a caller that reaches an object may do with it.
 */

type Tx = Prisma.TransactionClient;
const RANK: Record<OrgRoleName, number> = { member: 0, admin: 1, owner: 2 };

/** The role a caller acts with: its person's, lowered to its key's `maxRole` (a key never carries more than its issuer could grant). */
export function effectiveRole(caller: Caller, role: OrgRoleName | null): OrgRoleName | null {
  if (caller.kind !== "user" || role === null) return role;
  const cap = caller.apiKey?.maxRole ?? null;
  return cap !== null && RANK[cap] < RANK[role] ? cap : role;
}

/**
 * Every kind the caller is: a key is its role's key, and also a pinned key when pinned to one
 * server, and an OAuth token when an app holds it (each narrows: all must allow an action).
 */
export function credentialKinds(caller: Caller, role: OrgRoleName | null): CredentialKind[] {
  if (caller.kind === "instance") return ["instance"];
  const acting = effectiveRole(caller, role);
  if (acting === null) return [];
  const kinds: CredentialKind[] = [caller.apiKey ? `${acting}_key` : acting];
  if (caller.apiKey?.serverId) kinds.push("pinned_key");
  if (caller.oauthClient) kinds.push("oauth_token");
  return kinds;
}

/** Whether a caller with this role in the organization may take `action` (every kind it is must allow it). */
export function permits(caller: Caller, role: OrgRoleName | null, action: Action): boolean {
  const kinds = credentialKinds(caller, role);
  return kinds.length > 0 && kinds.every((kind) => kindAllows(kind, action));
}

/**
 * What the credential alone refuses, before any role is read: the instance credential, an
 * OAuth token and a key pinned to one server are refused here what their column does not allow.
 */
export function assertCredentialMay(caller: Caller, action: Action, message?: string): void {
  const kinds: CredentialKind[] = [];
  if (caller.kind === "instance") kinds.push("instance");
  else {
    if (caller.oauthClient) kinds.push("oauth_token");
    if (caller.apiKey?.serverId) kinds.push("pinned_key");
  }
  if (kinds.some((kind) => !kindAllows(kind, action))) throw new ForbiddenError(message ?? refusal(action));
}

/** The caller's role in `orgId` (read with the org in the query), or null for a non-member or the instance credential. */
export async function roleIn(tx: Tx, caller: Caller, orgId: string): Promise<OrgRoleName | null> {
  if (caller.kind !== "user") return null;
  const member = await tx.orgMember.findFirst({ where: { orgId, userId: caller.userId }, select: { role: true } });
  return member?.role ?? null;
}

/** 403 unless the caller may take `action` in the organization (its role read there). */
export async function assertMay(tx: Tx, caller: Caller, orgId: string, action: Action, message?: string): Promise<void> {
  if (!permits(caller, await roleIn(tx, caller, orgId), action)) throw new ForbiddenError(message ?? refusal(action));
}

function refusal(action: Action): string {
  return `This credential may not do that (${action}; see "What a key, an admin and an owner may do").`;
}
