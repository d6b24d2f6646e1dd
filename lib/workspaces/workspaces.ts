import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { orgsManagedBy, orgsVisibleTo, workspacesJoinedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import type { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceListQuery } from "@/lib/workspaces/schemas";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import { deleteQueuedBlobs } from "@/lib/files/delete-queued-blobs";
import { lockForWrite } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";

const workspaceSelect = {
  id: true,
  orgId: true,
  name: true,
  slug: true,
  knowledgeGraphEnabled: true,
  toolWhitelistsEnabled: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type WorkspaceView = Prisma.WorkspaceGetPayload<{ select: typeof workspaceSelect }>;

async function assertSlugFree(tx: Prisma.TransactionClient, orgId: string, slug: string): Promise<void> {
  const taken = await tx.workspace.findFirst({ where: { orgId, slug }, select: { id: true } });
  if (taken) throw new ConflictError(`The organization already has a workspace with the slug "${slug}".`);
}

/** Creates a workspace in an organization the caller manages; a slug taken in that org is a 409. */
export async function createWorkspace(caller: Caller, orgId: string, input: CreateWorkspaceBody): Promise<WorkspaceView> {
  assertCredentialMay(caller, "workspace.manage", "A key pinned to one MCP server cannot create workspaces.");
  return db().$transaction(async (tx) => {
    const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
    if (!org) throw new NotFoundError("organization");
    await assertSlugFree(tx, orgId, input.slug);
    const workspace = await tx.workspace.create({ data: { orgId, ...input }, select: workspaceSelect });
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(caller, { orgId, workspaceId: workspace.id, action: "workspace.create", targetType: "workspace", targetId: workspace.id, data: { slug: input.slug } }, tx);
    return workspace;
  });
}

/** Lists the workspaces of an organization that the caller works in (an admin: all of them). */
export async function listWorkspaces(caller: Caller, orgId: string, query: ListArgs<WorkspaceListQuery>): Promise<Page<WorkspaceView>> {
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsVisibleTo(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  const where: Prisma.WorkspaceWhereInput = { orgId, AND: [workspacesJoinedBy(caller), searchIn(query.q, (m) => [{ name: m }, { slug: m }])] };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.WorkspaceOrderByWithRelationInput[];
  return pageOf(query, (args) => db().workspace.findMany({ where, orderBy, select: workspaceSelect, ...args }));
}

/** A workspace the caller works in. */
export async function getWorkspace(caller: Caller, workspaceId: string): Promise<WorkspaceView> {
  const workspace = await db().workspace.findFirst({ where: { id: workspaceId, AND: [workspacesJoinedBy(caller)] }, select: workspaceSelect });
  if (!workspace) throw new NotFoundError("workspace");
  return workspace;
}

/** The managed workspace locked for this write, checked against its If-Match (not for a pinned key). */
async function lockManagedWorkspace(tx: Prisma.TransactionClient, caller: Caller, workspaceId: string, ifMatch: IfMatch | undefined) {
  const current = await tx.workspace.findFirst({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] }, select: workspaceSelect });
  if (!current) throw new NotFoundError("workspace");
  // A key acts "if pinned, on one MCP server only": its workspace's settings (whitelists) and
  // its deletion are every server's of the workspace, so they are not a pinned key's to change.
  assertCredentialMay(caller, "workspace.manage", "A key pinned to one MCP server cannot change or delete its workspace, which serves every server in it.");
  await lockForWrite(tx, { table: "workspaces", id: workspaceId, orgId: current.orgId, what: "workspace" }, ifMatch, () =>
    tx.workspace.findFirst({ where: { id: workspaceId, orgId: current.orgId, AND: [workspacesManagedBy(caller)] }, select: workspaceSelect }),
  );
  return current;
}

/** Renames a workspace, changes its slug or its settings (managers only). */
export async function updateWorkspace(caller: Caller, workspaceId: string, input: UpdateWorkspaceBody, ifMatch?: IfMatch): Promise<WorkspaceView> {
  return db().$transaction(async (tx) => {
    const current = await lockManagedWorkspace(tx, caller, workspaceId, ifMatch);
    if (input.slug && input.slug !== current.slug) await assertSlugFree(tx, current.orgId, input.slug);
    const { count } = await tx.workspace.updateMany({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] }, data: input });
    if (count === 0) throw new NotFoundError("workspace");
    await configVersion.bump(tx, current.orgId);
    await recordAuditEvent(caller, { orgId: current.orgId, workspaceId, action: "workspace.update", targetType: "workspace", targetId: workspaceId, data: { ...input } }, tx);
    return tx.workspace.findFirstOrThrow({ where: { id: workspaceId, orgId: current.orgId, AND: [workspacesManagedBy(caller)] }, select: workspaceSelect });
  });
}

/** Deletes a workspace with its members, servers, skills, files and API keys (managers only). */
export async function deleteWorkspace(caller: Caller, workspaceId: string, ifMatch?: IfMatch): Promise<void> {
  const storageKeys = await db().$transaction(async (tx) => {
    const current = await lockManagedWorkspace(tx, caller, workspaceId, ifMatch);
    // The cascade's trigger queues these blobs in this transaction; the keys let us delete them right after it.
    const files = await tx.file.findMany({ where: { workspaceId, orgId: current.orgId }, select: { storageKey: true } });
    await tx.workspace.deleteMany({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] } });
    await configVersion.bump(tx, current.orgId);
    await recordAuditEvent(caller, { orgId: current.orgId, workspaceId, action: "workspace.delete", targetType: "workspace", targetId: workspaceId, data: { slug: current.slug } }, tx);
    return files.map((f) => f.storageKey);
  });
  await deleteQueuedBlobs(storageKeys);
}
