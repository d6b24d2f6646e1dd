import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { withAnnouncedChanges } from "@/lib/config-version/config-version";
import { reloadConnector } from "@/lib/connectors/reload-connector";
import { errorText, logger } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * The upstream's `notifications/{tools,prompts,resources}/list_changed` (issue 12 point 3):
 * the connector is re-discovered exactly as an admin's reload does it (stored tools and
 * catalog replaced, the org's configuration version bumped, a `connector.reload` audit event
 * by the instance), and the change is announced, so live 2025-era sessions and 2026-07-28
 * subscriptions reconcile through the one config-version path and are told what changed.
 * Notifications of one connector — from every pooled connection to it — are coalesced.
 */

/** How long a burst of notifications is gathered before one re-discovery. */
const COALESCE_MS = 200;
/**
 * The least time between two re-discoveries of one connector: an upstream announcing
 * list_changed in a loop costs one re-discovery now and one (the last request's) later, at
 * most one a second; an upstream that changes its lists every few seconds is followed within
 * about a second each time (a listen stream's client is told while it still listens).
 */
export const MIN_REDISCOVERY_INTERVAL_MS = 1_000;

interface Entry {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  again: boolean;
  lastStart?: number;
}

const globalForRediscovery = processState<{ switchboardRediscovery?: Map<string, Entry> }>();
const pending = (globalForRediscovery.switchboardRediscovery ??= new Map());

/** Re-discovers the connector shortly (once per burst, at most once per interval; once more if asked while one runs). */
export function rediscoverSoon(connectorId: string): void {
  const entry: Entry = pending.get(connectorId) ?? { again: false };
  pending.set(connectorId, entry);
  if (entry.running) {
    entry.again = true;
    return;
  }
  if (entry.timer) return; // already scheduled: this request joins it
  const sinceLast = entry.lastStart === undefined ? Infinity : Date.now() - entry.lastStart;
  entry.timer = setTimeout(() => void run(connectorId, entry), Math.max(COALESCE_MS, MIN_REDISCOVERY_INTERVAL_MS - sinceLast));
  entry.timer.unref();
}

async function run(connectorId: string, entry: Entry): Promise<void> {
  entry.timer = undefined;
  entry.again = false;
  entry.lastStart = Date.now();
  // Nothing changed upstream: no version bump, no audit row (an announcing loop stays quiet).
  entry.running = withAnnouncedChanges(() => reloadConnector(INSTANCE_CALLER, connectorId, { skipUnchanged: true })).then(
    () => undefined,
    (e: unknown) => logger.warn({ err: errorText(e), connectorId }, "connector not re-discovered after its upstream's list_changed"),
  );
  await entry.running;
  entry.running = undefined;
  if (entry.again) rediscoverSoon(connectorId);
  // Kept for its lastStart until the interval is over, so the next burst still waits for it.
  else setTimeout(() => pending.get(connectorId) === entry && !entry.timer && !entry.running && pending.delete(connectorId), MIN_REDISCOVERY_INTERVAL_MS).unref();
}
