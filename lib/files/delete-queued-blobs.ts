import { db } from "@/lib/db/client";
import { errorText, logger } from "@/lib/log";
import { type BlobStore, blobStore } from "@/lib/files/blob-store";

/**
 * The second half of deleting a file. A trigger on `files` queues the blob of every row that
 * goes (a file delete, the cascade of a workspace, organization or user delete, plain SQL) in
 * `blob_deletions`, inside the deleting transaction; after the commit the blob is removed from
 * the store and only then its queue row. Whatever happens in between — a crash, the store
 * down — the row stays, and the periodic worker retries it with backoff until the store
 * confirms. "Deleting a file, a workspace or an organization deletes its blobs."
 */

/** First retry 30 s after a failure, doubling, at most once an hour. */
const FIRST_RETRY_SEC = 30;
const MAX_RETRY_SEC = 60 * 60;
/** A row claimed by a worker that then died is picked up again after this long. */
const CLAIM_LEASE_SEC = 5 * 60;
const BATCH = 100;
const PARALLEL = 8;
/** A request deletes at most this many blobs itself; the rest of a big org's wait for the worker. */
const IN_REQUEST_MAX = 500;

export interface BlobDeletionOptions {
  /** The store to delete from (default: the process's). */
  store?: BlobStore;
  /** The clock (tests move it forward to reach a retry). */
  now?: Date;
}

export interface ProcessOptions extends BlobDeletionOptions {
  /** Every queued row, not only those whose retry is due (an operator running it by hand). */
  ignoreBackoff?: boolean;
}

export interface BlobDeletionResult {
  deleted: number;
  failed: number;
}

/** Of these storage keys, the ones some file row still references (their blobs must stay). */
export async function referencedKeys(keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db().file.findMany({ where: { storageKey: { in: keys } }, select: { storageKey: true }, distinct: ["storageKey"] });
  return new Set(rows.map((r) => r.storageKey));
}

/**
 * Right after a commit that deleted file rows: removes these keys' blobs now. Never throws —
 * whatever fails stays queued for the worker, which is the whole point of the queue.
 */
export async function deleteQueuedBlobs(keys: string[], opts: BlobDeletionOptions = {}): Promise<BlobDeletionResult> {
  const first = [...new Set(keys)].slice(0, IN_REQUEST_MAX);
  try {
    return await settle(first, opts.store ?? blobStore(), opts.now ?? new Date());
  } catch (err) {
    logger.warn({ err: errorText(err), keys: keys.length }, "blobs of deleted files stay queued: could not delete them now");
    return { deleted: 0, failed: keys.length };
  }
}

/**
 * One worker pass: claims the queue rows that are due (several instances may run this at
 * once: each row goes to one of them) and settles them, batch after batch until none is due.
 */
export async function processBlobDeletions(opts: ProcessOptions = {}): Promise<BlobDeletionResult> {
  const store = opts.store ?? blobStore();
  const now = opts.now ?? new Date();
  const total = { deleted: 0, failed: 0 };
  // Made due rather than claimed regardless: a row failing again is then rescheduled past
  // `now` like any other, so this pass still ends.
  if (opts.ignoreBackoff) await db().blobDeletion.updateMany({ data: { nextAttemptAt: now } });
  for (;;) {
    const keys = await claimDue(now);
    if (keys.length === 0) return total;
    const result = await settle(keys, store, now);
    total.deleted += result.deleted;
    total.failed += result.failed;
    if (keys.length < BATCH) return total;
  }
}

async function claimDue(now: Date): Promise<string[]> {
  const rows = await db().$queryRaw<{ storage_key: string }[]>`
    UPDATE "blob_deletions" SET "next_attempt_at" = ${now}::timestamptz + make_interval(secs => ${CLAIM_LEASE_SEC})
    WHERE "storage_key" IN (
      SELECT "storage_key" FROM "blob_deletions" WHERE "next_attempt_at" <= ${now}::timestamptz
      ORDER BY "next_attempt_at" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
    )
    RETURNING "storage_key"`;
  return rows.map((r) => r.storage_key);
}

/** Deletes the unreferenced blobs; their rows go once the store confirms, failures back off. */
async function settle(keys: string[], store: BlobStore, now: Date): Promise<BlobDeletionResult> {
  if (keys.length === 0) return { deleted: 0, failed: 0 };
  const stillUsed = await referencedKeys(keys);
  const done = [...stillUsed];
  const failures: { key: string; error: string }[] = [];
  const toDelete = keys.filter((k) => !stillUsed.has(k));
  for (let i = 0; i < toDelete.length; i += PARALLEL) {
    const chunk = toDelete.slice(i, i + PARALLEL);
    const results = await Promise.allSettled(chunk.map((key) => store.delete(key)));
    results.forEach((r, j) => (r.status === "fulfilled" ? done.push(chunk[j]) : failures.push({ key: chunk[j], error: errorText(r.reason) })));
  }
  if (done.length > 0) await db().blobDeletion.deleteMany({ where: { storageKey: { in: done } } });
  for (const failure of failures) await recordFailure(failure.key, failure.error, now);
  if (failures.length > 0) logger.warn({ failed: failures.length, err: failures[0].error }, "could not delete blobs of deleted files; will retry");
  return { deleted: done.length - stillUsed.size, failed: failures.length };
}

/** Counts the attempt and schedules the next one (the row is re-created if a worker had taken it). */
async function recordFailure(key: string, error: string, now: Date): Promise<void> {
  await db().$executeRaw`
    INSERT INTO "blob_deletions" ("storage_key", "attempts", "next_attempt_at", "last_error")
    VALUES (${key}, 1, ${now}::timestamptz + make_interval(secs => ${FIRST_RETRY_SEC}), ${error.slice(0, 1000)})
    ON CONFLICT ("storage_key") DO UPDATE SET
      "attempts" = "blob_deletions"."attempts" + 1,
      "next_attempt_at" = ${now}::timestamptz + make_interval(secs => LEAST(${FIRST_RETRY_SEC} * power(2, "blob_deletions"."attempts"), ${MAX_RETRY_SEC})),
      "last_error" = EXCLUDED."last_error"`;
}
