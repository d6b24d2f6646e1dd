import { loadConnectorSecrets } from "@/lib/connectors/runtime/connector-secrets";
import { redactSecrets } from "@/lib/connectors/secret-headers";
import { setting } from "@/lib/config/settings";
import { errorText, logger } from "@/lib/log";
import { onShutdown } from "@/lib/ops/shutdown";
import { type HealthCell, mergeCell, mergeHealth, takeBuffered, type UsageCell, usageBuffer } from "@/lib/usage/usage-buffer";
import { pruneUsageBefore, writeHealthCells, writeUsageCells } from "@/lib/usage/write-usage-rows";

/**
 * Writes what this process has counted (lib/usage/count-call.ts) every
 * USAGE_FLUSH_INTERVAL_MS, and once more when the instance stops. A write that fails puts its
 * counts back for the next one, so a database outage delays the numbers without losing them
 * (those of a process that is killed outright are lost: at most one interval's worth).
 */

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Starts the periodic flush of this process, once (the first counted call does it). */
export function startUsageFlushes(): void {
  const buffer = usageBuffer();
  if (buffer.timer) return;
  buffer.timer = setInterval(() => void flushUsage(), setting("USAGE_FLUSH_INTERVAL_MS"));
  buffer.timer.unref();
  onShutdown("usage-flush", async () => {
    clearInterval(buffer.timer);
    await flushUsage();
  });
}

/** Writes everything buffered now; concurrent callers wait for the same write. Never throws. */
export async function flushUsage(): Promise<void> {
  const buffer = usageBuffer();
  while (buffer.flushing) await buffer.flushing;
  buffer.flushing = writeBuffered().finally(() => {
    buffer.flushing = undefined;
  });
  await buffer.flushing;
}

async function writeBuffered(): Promise<void> {
  const { cells, health } = takeBuffered();
  if (cells.length > 0 || health.length > 0) {
    try {
      await scrubMessages(cells, health);
      await writeUsageCells(cells);
      await writeHealthCells(health);
    } catch (e) {
      logger.warn({ err: errorText(e), cells: cells.length }, "usage counts not written; kept for the next flush");
      cells.forEach(mergeCell);
      health.forEach(mergeHealth);
    }
  }
  await pruneOldRows();
}

/**
 * "the last error message per tool (secrets scrubbed)": the runtime already scrubs its own
 * messages, but a tool's error answer is the upstream's text and may quote the credential it
 * was sent. Done here, off the call path, with the secrets the call ran with.
 */
async function scrubMessages(cells: UsageCell[], health: HealthCell[]): Promise<void> {
  const scrub = async (orgId: string, connectorId: string, configVersion: number, text: string): Promise<string> => {
    let headers: Record<string, string> = {};
    try {
      ({ headers } = await loadConnectorSecrets(orgId, connectorId, configVersion));
    } catch {
      // The connector is gone or undecryptable: its header values cannot be matched, so drop the text.
      return "The error message was withheld: the connector's secrets could not be read to scrub it.";
    }
    return redactSecrets(text, headers).replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 [redacted]");
  };
  for (const c of cells) if (c.lastError) c.lastError = await scrub(c.orgId, c.connectorId, c.configVersion, c.lastError);
  for (const h of health) if (h.lastFailureMessage) h.lastFailureMessage = await scrub(h.orgId, h.connectorId, h.configVersion, h.lastFailureMessage);
}

async function pruneOldRows(): Promise<void> {
  const buffer = usageBuffer();
  const now = Date.now();
  if (now - buffer.lastPruneAt < PRUNE_EVERY_MS) return;
  buffer.lastPruneAt = now;
  try {
    await pruneUsageBefore(new Date(now - setting("USAGE_RETENTION_DAYS") * DAY_MS));
  } catch (e) {
    logger.warn({ err: errorText(e) }, "old usage rows not deleted; trying again in an hour");
  }
}
