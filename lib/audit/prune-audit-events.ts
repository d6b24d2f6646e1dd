import { db } from "@/lib/db/client";
import { setting } from "@/lib/config/settings";
import { errorText, logger } from "@/lib/log";
import { onShutdown } from "@/lib/ops/shutdown";
import { processState } from "@/lib/process-state";

/**
 * Audit retention: an organization with `auditRetentionDays` keeps that many days of events;
 * older ones are deleted by a pass every AUDIT_PRUNE_INTERVAL_SEC. Without it (the default) an
 * organization keeps every event, as it always did. Every instance may run the pass: a delete
 * of rows already gone deletes nothing.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneResult {
  /** Events deleted, per organization that lost any. */
  deleted: Record<string, number>;
  total: number;
}

/** One pass now: each organization with a retention loses its events older than that many days. */
export async function pruneAuditEvents(now = new Date()): Promise<PruneResult> {
  const orgs = await db().organization.findMany({ where: { auditRetentionDays: { not: null } }, select: { id: true, auditRetentionDays: true } });
  const deleted: Record<string, number> = {};
  let total = 0;
  for (const org of orgs) {
    const cutoff = new Date(now.getTime() - org.auditRetentionDays! * DAY_MS);
    const { count } = await db().auditEvent.deleteMany({ where: { orgId: org.id, createdAt: { lt: cutoff } } });
    if (count > 0) {
      deleted[org.id] = count;
      total += count;
      logger.info({ orgId: org.id, deleted: count, retentionDays: org.auditRetentionDays, before: cutoff.toISOString() }, "audit events pruned");
    }
  }
  return { deleted, total };
}

/**
 * How often the pass runs, for people ("every hour", "every 15 minutes"): the console says when
 * events past the retention actually disappear, which is up to one interval after they age out.
 */
export function pruneIntervalPhrase(seconds: number = setting("AUDIT_PRUNE_INTERVAL_SEC")): string {
  const units: [number, string][] = [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  const [size, unit] = units.find(([size]) => seconds % size === 0)!;
  const count = seconds / size;
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

interface PruneState {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}
const globalForPrune = processState<{ switchboardAuditPrune?: PruneState }>();
const state = (globalForPrune.switchboardAuditPrune ??= { timer: null, running: null });

function tick(): void {
  if (state.running) return;
  state.running = pruneAuditEvents()
    .then(() => undefined)
    .catch((err: unknown) => logger.warn({ err: errorText(err) }, "audit prune pass failed; retrying next interval"))
    .finally(() => {
      state.running = null;
    });
}

/** Starts the periodic prune (once per process; later calls do nothing). */
export function startAuditPrune(opts: { intervalMs?: number } = {}): void {
  if (state.timer) return;
  state.timer = setInterval(tick, opts.intervalMs ?? setting("AUDIT_PRUNE_INTERVAL_SEC") * 1000);
  state.timer.unref();
  onShutdown("audit-prune", stopAuditPrune);
}

export async function stopAuditPrune(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  await state.running;
}
