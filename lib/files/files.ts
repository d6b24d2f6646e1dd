import type { Readable } from "node:stream";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { AppError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { callerUserId, workspacesJoinedBy } from "@/lib/tenancy/scopes";
import { permits, roleIn } from "@/lib/permissions/guards";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { type Page, pageOf } from "@/lib/api/pagination";
import { listOrder, searchIn } from "@/lib/api/list-query";
import { BlobNotFoundError, blobStore } from "@/lib/files/blob-store";
import { deleteQueuedBlobs } from "@/lib/files/delete-queued-blobs";
import { type FileRow, fileSelect, type FileView, filesVisibleTo, normalizeTags, toFileView } from "@/lib/files/file-view";
import type { FileQuery, UpdateFileBody } from "@/lib/files/schemas";
import { lockForWrite } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type BulkResult, runBulk } from "@/lib/api/bulk";

/**
 * The files workspace through the JSON API: list, read, change, delete, download. A file the
 * caller cannot see (another tenant's, another user's private one) is not found, exactly like
 * a missing id. File events are audited as runtime events (they do not change MCP snapshots).
 */

async function findVisibleFile(caller: Caller, fileId: string): Promise<FileRow> {
  const file = await db().file.findFirst({ where: { id: fileId, AND: [filesVisibleTo(caller)] }, select: fileSelect });
  if (!file) throw new NotFoundError("file");
  return file;
}

/** Files the caller can see in a workspace, newest first, optionally with a tag and/or an exact MIME type. */
export async function listFiles(caller: Caller, workspaceId: string, query: FileQuery): Promise<Page<FileView>> {
  await findScopedWorkspace(db(), workspaceId, workspacesJoinedBy(caller));
  const where = {
    workspaceId,
    AND: [filesVisibleTo(caller)],
    ...(query.tag ? { tags: { has: query.tag } } : {}),
    ...(query.mimeType ? { mimeType: query.mimeType } : {}),
    ...searchIn(query.q, (m) => [{ name: m }]),
  };
  const orderBy = listOrder(query, [{ createdAt: "desc" }, { id: "desc" }]) as Prisma.FileOrderByWithRelationInput[];
  const page = await pageOf(query, (args) => db().file.findMany({ where, orderBy, select: fileSelect, ...args }));
  return { items: page.items.map(toFileView), nextCursor: page.nextCursor };
}

export async function getFile(caller: Caller, fileId: string): Promise<FileView> {
  return toFileView(await findVisibleFile(caller, fileId));
}

/** Rename, retag or share/unshare a file: its owner only (others who can see it get 403). */
export async function updateFile(caller: Caller, fileId: string, input: UpdateFileBody, ifMatch?: IfMatch): Promise<FileView> {
  const file = await findVisibleFile(caller, fileId);
  if (file.ownerId !== callerUserId(caller)) throw new ForbiddenError("Only the file's owner may change it.");
  const data = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.tags !== undefined ? { tags: normalizeTags(input.tags) } : {}),
    ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
  };
  return db().$transaction(async (tx) => {
    await lockFileForWrite(tx, caller, file, ifMatch);
    const row = await tx.file.update({ where: { id: file.id, workspaceId: file.workspaceId, ownerId: file.ownerId, AND: [filesVisibleTo(caller)] }, data, select: fileSelect });
    await recordAuditEvent(caller, {
      orgId: file.orgId, workspaceId: file.workspaceId, action: "file.update", targetType: "file", targetId: file.id,
      data: { from: { name: file.name, tags: file.tags, visibility: file.visibility }, to: data },
    }, tx);
    return toFileView(row);
  });
}

/** The file's row lock for this write, and its If-Match compared with the file as it is now. */
async function lockFileForWrite(tx: Prisma.TransactionClient, caller: Caller, file: FileRow, ifMatch: IfMatch | undefined): Promise<void> {
  await lockForWrite(tx, { table: "files", id: file.id, orgId: file.orgId, what: "file" }, ifMatch, async () => {
    const row = await tx.file.findFirst({ where: { id: file.id, workspaceId: file.workspaceId, AND: [filesVisibleTo(caller)] }, select: fileSelect });
    return row && toFileView(row);
  });
}

/**
 * May the caller delete this (visible, so reached) file? Its owner; for a shared file, whoever
 * the permission table lets delete others' shared files (`files.delete_shared`).
 */
async function mayDelete(caller: Caller, file: FileRow): Promise<boolean> {
  if (file.ownerId === callerUserId(caller)) return true;
  if (file.visibility !== "workspace") return false;
  return permits(caller, await roleIn(db(), caller, file.orgId), "files.delete_shared");
}

/** Deletes the row (the file disappears at once), then its blob (queued by the delete itself, see delete-queued-blobs). */
export async function deleteFile(caller: Caller, fileId: string, ifMatch?: IfMatch): Promise<void> {
  const file = await findVisibleFile(caller, fileId);
  if (!(await mayDelete(caller, file))) throw new ForbiddenError("Only the file's owner, or a workspace admin for a shared file, may delete it.");
  await db().$transaction(async (tx) => {
    await lockFileForWrite(tx, caller, file, ifMatch);
    await tx.file.delete({ where: { id: file.id, workspaceId: file.workspaceId, AND: [filesVisibleTo(caller)] } });
    await recordAuditEvent(caller, {
      orgId: file.orgId, workspaceId: file.workspaceId, action: "file.delete", targetType: "file", targetId: file.id,
      data: { name: file.name, size: file.size, sha256: file.sha256 },
    }, tx);
  });
  await deleteQueuedBlobs([file.storageKey]);
}

/** A visible file's bytes as a stream, with its metadata. */
export async function openFileContent(caller: Caller, fileId: string): Promise<{ file: FileView; stream: Readable }> {
  const file = await findVisibleFile(caller, fileId);
  return { file: toFileView(file), stream: await openBlob(file) };
}

/** The bytes of a file row; a row whose blob is gone is our fault, not the caller's. */
export async function openBlob(file: Pick<FileRow, "id" | "storageKey">): Promise<Readable> {
  try {
    return await blobStore().get(file.storageKey);
  } catch (e) {
    if (!(e instanceof BlobNotFoundError)) throw e;
    logger.error({ fileId: file.id }, "a file's blob is missing from the blob store");
    throw new AppError("unavailable", "The file's content is not available right now.");
  }
}

/** Deletes several files, each exactly as `deleteFile` (and audited on its own). */
export function deleteFiles(caller: Caller, ids: string[]): Promise<BulkResult> {
  return runBulk(ids, (id) => deleteFile(caller, id));
}
