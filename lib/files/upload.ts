import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { callerUserId, workspacesJoinedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { blobStore, type StoredBlob } from "@/lib/files/blob-store";
import { deleteQueuedBlobs } from "@/lib/files/delete-queued-blobs";
import { fileSelect, type FileView, normalizeTags, toFileView } from "@/lib/files/file-view";
import { quotaExceeded, uploadLimits, uploadTooLarge } from "@/lib/files/limits";
import { parseMultipartUpload, type ParsedUpload } from "@/lib/files/multipart-upload";
import { sniffMimeType } from "@/lib/files/sniff-mime";
import { FileVisibility, Tags } from "@/lib/files/schemas";

/** Room for the multipart envelope (boundaries, part headers, fields) around the file. */
const ENVELOPE_BYTES = 256 * 1024;

export interface UploadSource {
  body: Readable | null;
  contentType: string | null;
  /** The request's declared length, used only to refuse early; the stream is measured anyway. */
  contentLength: number | null;
}

/** Bytes used by a workspace's files. */
async function workspaceUsage(client: Pick<Prisma.TransactionClient, "file">, workspaceId: string): Promise<number> {
  const sum = await client.file.aggregate({ where: { workspaceId }, _sum: { size: true } });
  return Number(sum._sum.size ?? 0);
}

/**
 * Stores one uploaded file in a workspace for the calling user. The bytes stream into the
 * blob store; the row (and so the file's visibility anywhere) is committed only after the blob
 * is complete, its size and sha256 known and the quota re-checked under a per-workspace lock.
 * Any failure removes the blob, so nothing half-uploaded survives.
 */
export async function uploadFile(caller: Caller, workspaceId: string, source: UploadSource): Promise<FileView> {
  const body = source.body ?? Readable.from([]);
  let plan: Awaited<ReturnType<typeof planUpload>>;
  try {
    plan = await planUpload(caller, workspaceId, source);
  } catch (e) {
    body.destroy();
    throw e;
  }
  const store = blobStore();
  const parsed = await parseMultipartUpload(body, source.contentType, { store, maxBytes: plan.maxBytes, tooLarge: plan.tooLarge });
  try {
    return await commitUpload(caller, plan, parsed);
  } catch (e) {
    if (parsed.file) await removeBlob(parsed.file.blob);
    throw e;
  }
}

/** Who may upload where, and how many bytes this upload may have (limit or quota left). */
async function planUpload(caller: Caller, workspaceId: string, source: UploadSource) {
  const workspace = await findScopedWorkspace(db(), workspaceId, workspacesJoinedBy(caller));
  const ownerId = callerUserId(caller);
  if (!ownerId) throw new ForbiddenError("Files belong to a user: upload with a user's credential.");
  const { maxUploadBytes, quotaBytes } = uploadLimits();
  const used = await workspaceUsage(db(), workspace.id);
  const left = quotaBytes - used;
  const declared = source.contentLength ?? 0;
  if (declared > maxUploadBytes + ENVELOPE_BYTES) throw uploadTooLarge(maxUploadBytes);
  if (left <= 0 || declared > left + ENVELOPE_BYTES) throw quotaExceeded(quotaBytes, used);
  const quotaBinds = left < maxUploadBytes;
  return {
    workspace,
    ownerId,
    quotaBytes,
    maxBytes: quotaBinds ? left : maxUploadBytes,
    tooLarge: quotaBinds ? () => quotaExceeded(quotaBytes, used) : () => uploadTooLarge(maxUploadBytes),
  };
}

type Plan = Awaited<ReturnType<typeof planUpload>>;

function uploadFields(parsed: ParsedUpload) {
  if (!parsed.file) throw new ValidationError([{ path: "file", message: "Send the file in a part named `file`." }]);
  if (parsed.visibility.length > 1) throw new ValidationError([{ path: "visibility", message: "Send `visibility` once." }]);
  const visibility = FileVisibility.safeParse(parsed.visibility[0] ?? "private");
  if (!visibility.success) throw new ValidationError([{ path: "visibility", message: "Use `private` or `workspace`." }]);
  const tags = Tags.safeParse(normalizeTags(parsed.tags));
  if (!tags.success) throw new ValidationError([{ path: "tags", message: "Up to 50 tags of 1–100 characters." }]);
  return { file: parsed.file, visibility: visibility.data, tags: tags.data };
}

/** A display name from the part's filename: no directories, no control characters. */
export function safeUploadName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200);
  return clean || "upload";
}

async function commitUpload(caller: Caller, plan: Plan, parsed: ParsedUpload): Promise<FileView> {
  const { file, visibility, tags } = uploadFields(parsed);
  const name = safeUploadName(file.filename);
  const mimeType = await sniffMimeType(file.head, name, file.isText);
  const id = "fl_" + randomBytes(12).toString("hex");
  const { workspace } = plan;
  return db().$transaction(async (tx) => {
    // Two uploads racing for the last bytes of a quota: the second one waits and re-counts.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`files:${workspace.id}`}))`;
    const used = await workspaceUsage(tx, workspace.id);
    if (used + file.blob.size > plan.quotaBytes) throw quotaExceeded(plan.quotaBytes, used, file.blob.size);
    const row = await tx.file.create({
      data: {
        id, orgId: workspace.orgId, workspaceId: workspace.id, ownerId: plan.ownerId, name, mimeType,
        size: file.blob.size, sha256: file.blob.sha256, tags, visibility, storageKey: file.blob.key,
      },
      select: fileSelect,
    });
    await recordAuditEvent(caller, {
      orgId: workspace.orgId, workspaceId: workspace.id, action: "file.upload", targetType: "file", targetId: id,
      data: { name, mimeType, size: row.size, sha256: row.sha256, visibility, tags },
    }, tx);
    return toFileView(row);
  });
}

/** A store that refuses the delete leaves the blob queued for the worker (or, with the database away too, to the sweep). */
async function removeBlob(blob: StoredBlob): Promise<void> {
  await deleteQueuedBlobs([blob.key]);
}
