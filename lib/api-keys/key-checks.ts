import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { callerUserId, pinnedServerOf, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { assertMayReachMember } from "@/lib/orgs/member-guards";
import { assertCredentialMay, permits, roleIn } from "@/lib/permissions/guards";
import type { OrgRoleName } from "@/lib/permissions/table";

type Tx = Prisma.TransactionClient;
type WorkspaceRef = { id: string; orgId: string };

/**
 * Whose key a new API key is: the caller's own by default. Only a manager of the workspace
 * (or the instance credential, which must name one) may issue a key for someone else, and that
 * user must belong to the workspace or its organization.
 */
export async function checkKeyOwner(tx: Tx, caller: Caller, workspace: WorkspaceRef, requested: string | undefined): Promise<string> {
  const self = callerUserId(caller);
  const userId = requested ?? self;
  if (!userId) throw new ValidationError([{ path: "userId", message: "Required with the instance credential: name the key's user." }]);
  if (userId !== self) {
    assertCredentialMay(caller, "keys.others", "A key pinned to one MCP server issues keys for its own user only.");
    const managed = await tx.workspace.count({ where: { id: workspace.id, AND: [workspacesManagedBy(caller)] } });
    if (managed === 0) throw new ForbiddenError("Members create API keys for themselves only.");
    await assertNotOutranked(tx, caller, workspace.orgId, userId);
  }
  const member = await tx.user.findFirst({
    where: {
      id: userId,
      OR: [{ workspaceMemberships: { some: { workspaceId: workspace.id } } }, { orgMemberships: { some: { orgId: workspace.orgId } } }],
    },
    select: { id: true },
  });
  if (!member) throw new ValidationError([{ path: "userId", message: "The user must be a member of the workspace or of its organization." }]);
  return userId;
}

/**
 * A key acts as its user, so a key issued in an owner's name carries the owner's rights: an
 * admin holding one could make itself owner. Only an owner (or the instance credential) issues
 * keys in an owner's name (the permission table's `owners.manage`).
 */
async function assertNotOutranked(tx: Tx, caller: Caller, orgId: string, userId: string): Promise<void> {
  await assertMayReachMember(tx, caller, orgId, userId, "Only an owner of the organization can issue API keys in an owner's name.");
}

/**
 * The highest role a new key acts with. A key never carries more than its issuer could grant:
 * one issued for someone else by a caller who may not reach owners (an admin) acts at most as
 * an admin, even once its user is made owner; a key issued by a capped key keeps that cap.
 * The instance credential and owners grant any role, so their keys follow their user's role.
 */
export async function checkKeyMaxRole(tx: Tx, caller: Caller, orgId: string, userId: string): Promise<OrgRoleName | null> {
  if (caller.kind === "instance") return null;
  const inherited = caller.apiKey?.maxRole ?? null;
  if (userId === caller.userId) return inherited;
  return permits(caller, await roleIn(tx, caller, orgId), "owners.manage") ? inherited : "admin";
}

/**
 * The server a new key is pinned to: one of the same workspace (checked in the query). A key
 * that is itself pinned can only issue keys pinned to the same server, never wider ones.
 */
export async function checkKeyServer(tx: Tx, caller: Caller, workspace: WorkspaceRef, requested: string | null | undefined): Promise<string | null> {
  const pin = pinnedServerOf(caller);
  const serverId = requested === undefined ? pin : requested;
  if (pin && serverId !== pin) throw new ForbiddenError("A key pinned to one MCP server can only issue keys pinned to that server.");
  if (!serverId) return null;
  const server = await tx.mcpServer.findFirst({ where: { id: serverId, workspaceId: workspace.id }, select: { id: true } });
  if (!server) throw new ValidationError([{ path: "serverId", message: "The server must be an MCP server of this workspace." }]);
  return serverId;
}

/**
 * When a new key expires: as asked, except that a key issued by an expiring key expires no
 * later than that key (left out, with it) — else a key handed out for a day could mint itself
 * one that works forever, and outlive its own expiry. (Revoking the issuing key revokes the keys
 * it issued too: lib/api-keys/revoke-keys.ts.)
 */
export function checkKeyExpiry(caller: Caller, requested: string | null | undefined): Date | null {
  const limit = caller.kind === "user" ? (caller.apiKey?.expiresAt ?? null) : null;
  if (limit === null) return requested ? new Date(requested) : null;
  if (requested === undefined) return new Date(limit);
  if (requested === null || Date.parse(requested) > limit) {
    throw new ForbiddenError("A key that expires can only issue keys that expire no later than it does.");
  }
  return new Date(requested);
}
