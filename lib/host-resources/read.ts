import type { Readable } from "node:stream";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { HostResourcesContext } from "@/lib/host-resources/context";
import { BlobNotFoundError, blobStore } from "@/lib/files/blob-store";
import { fileUri, filesVisibleToUser } from "@/lib/files/file-view";
import { HOST_RESOURCES_MAX_READ_BYTES } from "@/lib/host-resources/capability";
import { contentUnavailable, resourceNotFound, resourceTooLarge } from "@/lib/host-resources/errors";
import { fileIdFromUri, readUriParam } from "@/lib/host-resources/params";
import { type ResourceContents, toResourceContents } from "@/lib/host-resources/text-mime";
import { type AuditTarget, runHostRequest } from "@/lib/host-resources/guard";
import { storable } from "@/lib/connectors/runtime/audit-excerpt";

/** The specification's ReadResourceResult, as `ai.nimblebrain/resources/read` returns it. */
export interface HostResourcesReadResult {
  contents: ResourceContents[];
}

/**
 * `ai.nimblebrain/resources/read` (seed 000): the file a `files://` URI names, if the
 * connection's user can see it in the connection's workspace — their private files and the
 * workspace's shared files; with no user (instance credential) the shared files only. Missing
 * and not visible are the same -32002 `{ uri }`. Larger than read.maxSize → -32005. Text MIME
 * types with UTF-8 bytes come back as `text`, anything else base64 in `blob`.
 */
export async function handleHostResourcesRead(ctx: HostResourcesContext, params: unknown): Promise<HostResourcesReadResult> {
  const target: AuditTarget = { targetType: "file", targetId: null, data: { uri: uriForAudit(params) } };
  return runHostRequest(ctx, "host_resources/read", target, async () => {
    const uri = readUriParam(params);
    const fileId = fileIdFromUri(uri);
    const file = await db().file.findFirst({
      // The workspace comes from the connection, never from the URI.
      where: { id: fileId, orgId: ctx.orgId, workspaceId: ctx.workspaceId, AND: [filesVisibleToUser(ctx.userId)] },
      select: { id: true, mimeType: true, size: true, storageKey: true },
    });
    if (!file) throw resourceNotFound(uri);
    target.targetId = file.id;
    Object.assign(target.data, { size: file.size, mimeType: file.mimeType });
    if (file.size > HOST_RESOURCES_MAX_READ_BYTES) throw resourceTooLarge(uri, file.size, HOST_RESOURCES_MAX_READ_BYTES);
    const bytes = await readBlob(file, uri);
    const content = toResourceContents(fileUri(file.id), file.mimeType, bytes);
    target.data.as = "text" in content ? "text" : "blob";
    return { contents: [content] };
  });
}

function uriForAudit(params: unknown): string | null {
  const uri = (params as { uri?: unknown } | null)?.uri;
  // The upstream chose this text: what PostgreSQL cannot store must not cost the read its audit event.
  return typeof uri === "string" ? storable(uri.slice(0, 500)) : null;
}

/** The whole blob (at most read.maxSize bytes, checked again while reading). */
async function readBlob(file: { id: string; storageKey: string; size: number }, uri: string): Promise<Buffer> {
  let stream: Readable;
  try {
    stream = await blobStore().get(file.storageKey);
  } catch (e) {
    if (!(e instanceof BlobNotFoundError)) throw e;
    logger.error({ fileId: file.id }, "a file's blob is missing from the blob store");
    throw contentUnavailable(uri);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > HOST_RESOURCES_MAX_READ_BYTES) {
      stream.destroy();
      throw resourceTooLarge(uri, Math.max(total, file.size), HOST_RESOURCES_MAX_READ_BYTES);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}
