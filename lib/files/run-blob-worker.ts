import { setting } from "@/lib/config/settings";
import { errorText, logger } from "@/lib/log";
import { onShutdown } from "@/lib/ops/shutdown";
import type { BlobStore } from "@/lib/files/blob-store";
import { type BlobDeletionResult, processBlobDeletions } from "@/lib/files/delete-queued-blobs";
import { type SweepResult, sweepOrphanBlobs } from "@/lib/files/sweep-orphan-blobs";
import { processState } from "@/lib/process-state";

/**
 * The periodic blob work of a server process: every BLOB_WORKER_INTERVAL_SEC the due rows of
 * the deletion queue are retried, and once an hour the store is swept for orphans. Every
 * instance may run it; the queue hands each row to one of them.
 */

const SWEEP_EVERY_MS = 60 * 60 * 1000;

interface WorkerState {
  timer: NodeJS.Timeout | null;
  /** The pass in progress, awaited on shutdown. */
  running: Promise<void> | null;
  lastSweepAt: number;
}

const globalForWorker = processState<{ switchboardBlobWorker?: WorkerState }>();
const state = (globalForWorker.switchboardBlobWorker ??= { timer: null, running: null, lastSweepAt: 0 });

export interface BlobWorkerPass {
  deletions: BlobDeletionResult;
  sweep: SweepResult | null;
}

export interface BlobWorkerPassOptions {
  /** Retry the queued deletions (default true). */
  queue?: boolean;
  /** Sweep the store for orphans too (default false). */
  sweep?: boolean;
  /** Retry every queued deletion, not only the due ones. */
  ignoreBackoff?: boolean;
  store?: BlobStore;
}

/** One pass now: the due deletions, then (when asked) the orphan sweep. */
export async function runBlobWorkerOnce(opts: BlobWorkerPassOptions = {}): Promise<BlobWorkerPass> {
  const deletions = opts.queue === false
    ? { deleted: 0, failed: 0 }
    : await processBlobDeletions({ store: opts.store, ignoreBackoff: opts.ignoreBackoff });
  const sweep = opts.sweep ? await sweepOrphanBlobs({ store: opts.store }) : null;
  return { deletions, sweep };
}

function tick(): void {
  if (state.running) return; // a slow store must not pile up overlapping passes
  const sweep = Date.now() - state.lastSweepAt >= SWEEP_EVERY_MS;
  state.running = runBlobWorkerOnce({ sweep })
    .then(() => {
      if (sweep) state.lastSweepAt = Date.now();
    })
    // One line per interval at most while the database or the store is away.
    .catch((err: unknown) => logger.warn({ err: errorText(err) }, "blob worker pass failed; retrying next interval"))
    .finally(() => {
      state.running = null;
    });
}

/** Starts the periodic passes (once per process; later calls do nothing). */
export function startBlobWorker(opts: { intervalMs?: number } = {}): void {
  if (state.timer) return;
  state.timer = setInterval(tick, opts.intervalMs ?? setting("BLOB_WORKER_INTERVAL_SEC") * 1000);
  // The worker must not keep a process (or a test worker) alive on its own.
  state.timer.unref();
  onShutdown("blob-worker", stopBlobWorker);
}

/** Stops the timer and waits for a pass in progress to finish. */
export async function stopBlobWorker(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  await state.running;
}

export function blobWorkerRunning(): boolean {
  return state.timer !== null;
}
