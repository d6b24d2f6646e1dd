import { errorText, logger } from "@/lib/log";
import { type BlobStore, blobStore, type ListedBlob } from "@/lib/files/blob-store";
import { referencedKeys } from "@/lib/files/delete-queued-blobs";

/**
 * The safety net under the deletion queue: "a sweep removes blobs with no row older than an
 * hour". Orphans come from what the queue never saw — an upload whose process died between the
 * blob's `put` and the row's commit, a blob written before the queue existed. The hour protects
 * an upload in flight: its blob is complete a moment before its row commits.
 */

export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
const BATCH = 500;

export interface SweepOptions {
  store?: BlobStore;
  /** Only blobs last written this long before `now` are candidates (default one hour). */
  minAgeMs?: number;
  now?: Date;
}

export interface SweepResult {
  /** Blobs listed in the store. */
  listed: number;
  /** Orphans removed. */
  removed: number;
}

/** Lists the whole store and removes every old blob that no file row references. */
export async function sweepOrphanBlobs(opts: SweepOptions = {}): Promise<SweepResult> {
  const store = opts.store ?? blobStore();
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.minAgeMs ?? ORPHAN_MIN_AGE_MS);
  const result: SweepResult = { listed: 0, removed: 0 };
  let batch: ListedBlob[] = [];
  for await (const blob of store.list()) {
    result.listed++;
    if (blob.modifiedAt.getTime() <= cutoff) batch.push(blob);
    if (batch.length >= BATCH) {
      result.removed += await removeOrphans(store, batch);
      batch = [];
    }
  }
  result.removed += await removeOrphans(store, batch);
  return result;
}

async function removeOrphans(store: BlobStore, candidates: ListedBlob[]): Promise<number> {
  if (candidates.length === 0) return 0;
  const used = await referencedKeys(candidates.map((b) => b.key));
  let removed = 0;
  for (const { key } of candidates) {
    if (used.has(key)) continue;
    try {
      await store.delete(key);
      removed++;
    } catch (err) {
      // The next sweep finds it again.
      logger.warn({ err: errorText(err), key }, "could not remove an orphaned blob");
    }
  }
  if (removed > 0) logger.info({ removed }, "removed blobs that no file references");
  return removed;
}
