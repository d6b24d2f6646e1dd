import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { generateApiKey } from "@/lib/auth/api-key-secret";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { callerUserId, orgsVisibleTo, pinnedServerOf, workspacesJoinedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import { checkKeyExpiry, checkKeyMaxRole, checkKeyOwner, checkKeyServer } from "@/lib/api-keys/key-checks";
import { lockIssuingKey, revokeKeysAndDescendants } from "@/lib/api-keys/revoke-keys";
import { assertMayReachMember } from "@/lib/orgs/member-guards";
import type { ApiKeyListQuery, CreateApiKeyBody } from "@/lib/api-keys/schemas";
import { type BulkResult, runBulk } from "@/lib/api/bulk";

/**
 * User API keys. Members create, list and revoke their own keys; managers of the workspace
 * any key in it. The secret is returned once, at creation; only its sha256 is stored.
 * Creating a key changes nothing anyone sees; revoking one bumps the organization's
 * configuration version, which resolved keys are cached by (lib/config-version).
 */

const createdKeySelect = {
  id: true,
  prefix: true,
  name: true,
  workspaceId: true,
  userId: true,
  serverId: true,
  expiresAt: true,
  createdAt: true,
  createdBy: { select: { id: true, email: true, name: true } },
} as const satisfies Prisma.ApiKeySelect;
const apiKeySelect = { ...createdKeySelect, revokedAt: true, lastUsedAt: true } as const satisfies Prisma.ApiKeySelect;
export type ApiKeyView = Prisma.ApiKeyGetPayload<{ select: typeof apiKeySelect }>;
export type CreatedApiKeyView = Prisma.ApiKeyGetPayload<{ select: typeof createdKeySelect }> & { key: string };

/**
 * The caller's own keys, in every organization it belongs to — also those a manager issued in
 * its name, in a workspace it may not have joined ("Keys made for another user are shown to
 * that user, who can revoke them"). An API key reaches only the own keys of its workspace.
 */
function keysOwnedBy(caller: Caller): Prisma.ApiKeyWhereInput {
  if (caller.kind === "instance") return { id: { in: [] } };
  const workspace: Prisma.WorkspaceWhereInput = { org: orgsVisibleTo(caller), ...(caller.apiKey ? { id: caller.apiKey.workspaceId } : {}) };
  return { userId: caller.userId, workspace };
}

/**
 * Keys the caller may see and revoke: all keys of the workspaces it manages, plus its own. A key
 * pinned to one server reaches no one else's keys (the table's `keys.others` is not in its
 * column): only its user's keys pinned to the same server.
 */
function keysVisibleTo(caller: Caller): Prisma.ApiKeyWhereInput {
  if (caller.kind === "instance") return {};
  const pin = pinnedServerOf(caller);
  if (pin) return { AND: [keysOwnedBy(caller), { serverId: pin }] };
  return { OR: [{ workspace: workspacesManagedBy(caller) }, keysOwnedBy(caller)] };
}

/** Issues a key for the caller (or, for a manager, any member of the workspace). */
export async function createApiKey(caller: Caller, workspaceId: string, input: CreateApiKeyBody): Promise<CreatedApiKeyView> {
  return db().$transaction(async (tx) => {
    const workspace = await findScopedWorkspace(tx, workspaceId, workspacesJoinedBy(caller));
    const userId = await checkKeyOwner(tx, caller, workspace, input.userId);
    const serverId = await checkKeyServer(tx, caller, workspace, input.serverId);
    const expiresAt = checkKeyExpiry(caller, input.expiresAt);
    const maxRole = await checkKeyMaxRole(tx, caller, workspace.orgId, userId);
    const issuedByKeyId = await lockIssuingKey(tx, caller);
    const { key, prefix, hash } = generateApiKey();
    const row = await tx.apiKey.create({
      data: { orgId: workspace.orgId, workspaceId: workspace.id, userId, serverId, name: input.name, prefix, hash, expiresAt, createdById: callerUserId(caller), issuedByKeyId, maxRole },
      select: createdKeySelect,
    });
    await recordAuditEvent(caller, {
      orgId: workspace.orgId,
      workspaceId: workspace.id,
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      data: { name: row.name, userId, forAnotherUser: userId !== callerUserId(caller), serverId, expiresAt: expiresAt?.toISOString() ?? null, maxRole, issuedByKeyId },
    }, tx);
    return { ...row, key };
  });
}

/** Lists a workspace's keys: a member sees its own, a manager all of them. Never the secret. */
export async function listApiKeys(caller: Caller, workspaceId: string, query: ListArgs<ApiKeyListQuery>): Promise<Page<ApiKeyView>> {
  await findScopedWorkspace(db(), workspaceId, workspacesJoinedBy(caller));
  const where: Prisma.ApiKeyWhereInput = { workspaceId, AND: [keysVisibleTo(caller), searchKeys(query.q)] };
  return pageOf(query, (args) => db().apiKey.findMany({ where, orderBy: keyOrder(query), select: apiKeySelect, ...args }));
}

/**
 * The caller's own keys across its organizations, newest state included (revoked ones too),
 * each with who issued it. A person's view of every credential that acts in their name.
 */
export async function listMyApiKeys(caller: Caller, query: ListArgs<ApiKeyListQuery>): Promise<Page<ApiKeyView>> {
  if (caller.kind === "instance") throw new ForbiddenError("The instance credential has no keys of its own; list a workspace's keys instead.");
  const where: Prisma.ApiKeyWhereInput = { AND: [keysOwnedBy(caller), searchKeys(query.q)] };
  return pageOf(query, (args) => db().apiKey.findMany({ where, orderBy: keyOrder(query), select: apiKeySelect, ...args }));
}

const searchKeys = (q: string | undefined): Prisma.ApiKeyWhereInput => searchIn(q, (m) => [{ name: m }, { prefix: m }]);

function keyOrder(query: ListArgs<ApiKeyListQuery>) {
  return listOrder(query, [{ id: "asc" }]) as Prisma.ApiKeyOrderByWithRelationInput[];
}

/**
 * Revokes a key and every key it issued (and theirs, lib/api-keys/revoke-keys.ts): they stop
 * working on their next request, on every instance (the version bump invalidates whatever
 * resolved them). An owner's key is revoked by owners only (`owners.manage`, else 403).
 * Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(caller: Caller, keyId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, AND: [keysVisibleTo(caller)] },
      select: { id: true, orgId: true, workspaceId: true, userId: true, revokedAt: true },
    });
    if (!key) throw new NotFoundError("API key");
    await assertMayReachMember(tx, caller, key.orgId, key.userId, "Only an owner of the organization can revoke an owner's API keys.");
    if (key.revokedAt) return;
    const count = await revokeKeysAndDescendants(tx, key.orgId, [key.id]);
    if (count === 0) return; // revoked meanwhile by someone else: nothing changed here
    await configVersion.bump(tx, key.orgId);
    await recordAuditEvent(caller, {
      orgId: key.orgId,
      workspaceId: key.workspaceId,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      data: { userId: key.userId, byOwner: key.userId === callerUserId(caller), revokedIssuedKeys: count - 1 },
    }, tx);
  });
}

/** Revokes several keys, each exactly as `revokeApiKey` (and audited on its own). */
export function revokeApiKeys(caller: Caller, ids: string[]): Promise<BulkResult> {
  return runBulk(ids, (id) => revokeApiKey(caller, id));
}
