import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { withAnnouncedChanges } from "@/lib/config-version/config-version";
import { reloadConnector } from "@/lib/connectors/reload-connector";
import { errorText, logger } from "@/lib/log";

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

const globalForRediscovery = globalThis as unknown as { switchboardRediscovery?: Map<string, { timer?: NodeJS.Timeout; running?: Promise<void>; again: boolean }> };
const pending = (globalForRediscovery.switchboardRediscovery ??= new Map());

/** Re-discovers the connector shortly (once per burst; once more if asked while one runs). */
export function rediscoverSoon(connectorId: string): void {
  const entry = pending.get(connectorId) ?? { again: false };
  pending.set(connectorId, entry);
  if (entry.running) {
    entry.again = true;
    return;
  }
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => void run(connectorId, entry), COALESCE_MS);
  entry.timer.unref();
}

async function run(connectorId: string, entry: { timer?: NodeJS.Timeout; running?: Promise<void>; again: boolean }): Promise<void> {
  entry.timer = undefined;
  entry.again = false;
  entry.running = withAnnouncedChanges(() => reloadConnector(INSTANCE_CALLER, connectorId)).then(
    () => undefined,
    (e: unknown) => logger.warn({ err: errorText(e), connectorId }, "connector not re-discovered after its upstream's list_changed"),
  );
  await entry.running;
  entry.running = undefined;
  if (entry.again) rediscoverSoon(connectorId);
  else pending.delete(connectorId);
}
