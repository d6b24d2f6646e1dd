import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { generateApiKey } from "@/lib/auth/api-key-secret";
import { NotFoundError } from "@/lib/errors";
import { workspacesJoinedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { type Page, type PageQuery, pageOf } from "@/lib/api/pagination";
import { checkKeyOwner, checkKeyServer } from "@/lib/api-keys/key-checks";
import type { CreateApiKeyBody } from "@/lib/api-keys/schemas";

/**
 * User API keys. Members create, list and revoke their own keys; managers of the workspace
 * any key in it. The secret is returned once, at creation; only its sha256 is stored.
 * Keys are in no MCP snapshot (every request re-checks its key), so their audit events are not
 * configuration changes.
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
} as const satisfies Prisma.ApiKeySelect;
const apiKeySelect = { ...createdKeySelect, revokedAt: true, lastUsedAt: true } as const satisfies Prisma.ApiKeySelect;
export type ApiKeyView = Prisma.ApiKeyGetPayload<{ select: typeof apiKeySelect }>;
export type CreatedApiKeyView = Prisma.ApiKeyGetPayload<{ select: typeof createdKeySelect }> & { key: string };

/** Keys the caller may see and revoke: all keys of the workspaces it manages, plus its own. */
function keysVisibleTo(caller: Caller): Prisma.ApiKeyWhereInput {
  if (caller.kind === "instance") return {};
  return { OR: [{ workspace: workspacesManagedBy(caller) }, { userId: caller.userId, workspace: workspacesJoinedBy(caller) }] };
}

/** Issues a key for the caller (or, for a manager, any member of the workspace). */
export async function createApiKey(caller: Caller, workspaceId: string, input: CreateApiKeyBody): Promise<CreatedApiKeyView> {
  return db().$transaction(async (tx) => {
    const workspace = await findScopedWorkspace(tx, workspaceId, workspacesJoinedBy(caller));
    const userId = await checkKeyOwner(tx, caller, workspace, input.userId);
    const serverId = await checkKeyServer(tx, caller, workspace, input.serverId);
    const { key, prefix, hash } = generateApiKey();
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    const row = await tx.apiKey.create({
      data: { orgId: workspace.orgId, workspaceId: workspace.id, userId, serverId, name: input.name, prefix, hash, expiresAt },
      select: createdKeySelect,
    });
    await recordAuditEvent(caller, {
      orgId: workspace.orgId,
      workspaceId: workspace.id,
      action: "api_key.create",
      targetType: "api_key",
      targetId: row.id,
      data: { name: row.name, userId, serverId, expiresAt: expiresAt?.toISOString() ?? null },
      configChange: false,
    }, tx);
    return { ...row, key };
  });
}

/** Lists a workspace's keys: a member sees its own, a manager all of them. Never the secret. */
export async function listApiKeys(caller: Caller, workspaceId: string, page: PageQuery): Promise<Page<ApiKeyView>> {
  await findScopedWorkspace(db(), workspaceId, workspacesJoinedBy(caller));
  return pageOf(page, (args) =>
    db().apiKey.findMany({ where: { workspaceId, AND: [keysVisibleTo(caller)] }, orderBy: { id: "asc" }, select: apiKeySelect, ...args }),
  );
}

/**
 * Revokes a key. Every request re-checks `revokedAt` (lib/auth/resolve-bearer.ts), so the key
 * stops working on its next request. Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(caller: Caller, keyId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, AND: [keysVisibleTo(caller)] },
      select: { id: true, orgId: true, workspaceId: true, userId: true, revokedAt: true },
    });
    if (!key) throw new NotFoundError("API key");
    if (key.revokedAt) return;
    const { count } = await tx.apiKey.updateMany({ where: { id: key.id, orgId: key.orgId, revokedAt: null, AND: [keysVisibleTo(caller)] }, data: { revokedAt: new Date() } });
    if (count === 0) return; // revoked meanwhile by someone else: nothing changed here
    await recordAuditEvent(caller, {
      orgId: key.orgId,
      workspaceId: key.workspaceId,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      data: { userId: key.userId },
      configChange: false,
    }, tx);
  });
}
