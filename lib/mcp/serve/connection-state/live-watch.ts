import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { errorText, logger } from "@/lib/log";
import { mcpConfig } from "@/lib/mcp/serve/mcp-config";
import { readVersions, watch as watchConfigChanges } from "@/lib/config-version/config-version";
import { resolveSurface } from "@/lib/mcp/surface/resolve-surface";
import type { McpEndpoint, McpSurface } from "@/lib/mcp/surface/surface-types";
import { GRANT_KEY_PREFIX, usableGrantKeyIds } from "@/lib/oauth/resolve-grant";
import { processState } from "@/lib/process-state";

/**
 * Live MCP connections (2025-era sessions, 2026-era subscriptions) follow configuration
 * changes by polling their organizations' config versions: every admin change bumps the
 * version in the database, so this works across instances with nothing but PostgreSQL.
 * One light query per tick, and only while something is live.
 */

type Sweep = () => Promise<void>;

const globalForWatch = processState<{
  switchboardMcpWatch?: {
    sweeps: Map<string, Sweep>;
    timer: NodeJS.Timeout | null;
    running: boolean;
    /** A sweep was asked for while one ran: run once more when it ends. */
    again: boolean;
    unsubscribe: (() => void) | null;
  };
}>();
const watch = (globalForWatch.switchboardMcpWatch ??= { sweeps: new Map(), timer: null, running: false, again: false, unsubscribe: null });

/** Registers (or replaces) a named sweep and makes sure the timer runs. */
export function registerSweep(name: string, sweep: Sweep): void {
  watch.sweeps.set(name, sweep);
  if (watch.timer) return;
  watch.timer = setInterval(() => void tick(), mcpConfig.reconcileIntervalMs());
  // Live sessions must not keep a process (or a test worker) alive.
  watch.timer.unref();
  // Announced changes (from this or another instance) are swept at once; the timer stays
  // as the fallback when an announcement is lost.
  watch.unsubscribe ??= watchConfigChanges(() => void tick());
}

async function tick(): Promise<void> {
  if (watch.running) {
    // A slow database must not pile up overlapping sweeps, but a change announced mid-sweep
    // may have committed after this sweep read its versions: look once more afterwards.
    watch.again = true;
    return;
  }
  watch.running = true;
  try {
    do {
      watch.again = false;
      for (const [name, sweep] of watch.sweeps) {
        await sweep().catch((e: unknown) => logger.warn({ err: errorText(e), sweep: name }, "MCP live sweep failed"));
      }
    } while (watch.again);
  } finally {
    watch.running = false;
  }
}

/** Stops the periodic sweep (a process shutting down its database first). */
export function stopLiveWatch(): void {
  if (watch.timer) clearInterval(watch.timer);
  watch.timer = null;
  watch.unsubscribe?.();
  watch.unsubscribe = null;
  watch.sweeps.clear();
}

/** Runs every sweep now (tests; also usable after a known change). */
export async function sweepNow(): Promise<void> {
  await tick();
}

/** A live connection as the sweep sees it: a 2025-era session or a 2026-era handler with open subscriptions. */
export interface LiveConnection {
  endpoint: McpEndpoint;
  caller: Caller | null;
  /** The configuration its surface came from; null: it never changes (the demo). */
  watch: McpSurface["watch"];
  /** Ends it: its key was revoked or expired, or its credential lost the endpoint. */
  end(): Promise<void> | void;
  /** Takes what a newer configuration offers (and tells the client when its tools changed). */
  adopt(fresh: McpSurface): Promise<void> | void;
}

/**
 * The one reconcile of live connections, whatever their era: those of revoked keys end, then
 * each whose organization's version moved gets the surface resolved for it now — or ends
 * when there is none. One query for the keys and one for the versions, whatever the number.
 */
export async function reconcileLive(live: LiveConnection[]): Promise<void> {
  const usable = await usableKeyIds(live.map((l) => apiKeyIdOf(l.caller)).filter((id): id is string => id !== null));
  const kept: LiveConnection[] = [];
  for (const connection of live) {
    const keyId = apiKeyIdOf(connection.caller);
    if (keyId && !usable.has(keyId)) await connection.end();
    else if (connection.watch) kept.push(connection);
  }
  const versions = await readVersions(kept.map((l) => l.watch!.orgId));
  for (const connection of kept) {
    if (versions.get(connection.watch!.orgId) === connection.watch!.configVersion) continue;
    const fresh = await resolveSurface(connection.endpoint, connection.caller);
    if (fresh) await connection.adopt(fresh);
    else await connection.end();
  }
}

/**
 * Of these API key ids, the ones still usable (not revoked, not expired). Live sessions and
 * subscriptions of the others are ended: revocation is immediate for open streams too.
 */
export async function usableKeyIds(keyIds: Iterable<string>): Promise<Set<string>> {
  const all = [...new Set(keyIds)];
  // OAuth grants stand in for keys (lib/oauth/resolve-grant.ts): checked in their own table.
  const ids = all.filter((id) => !id.startsWith(GRANT_KEY_PREFIX));
  const grants = await usableGrantKeyIds(all);
  if (ids.length === 0) return grants;
  const rows = await db().apiKey.findMany({
    where: { id: { in: ids }, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: { id: true },
  });
  return new Set([...grants, ...rows.map((r) => r.id)]);
}

/** The API key id behind a caller, or null (instance credential, anonymous). */
export function apiKeyIdOf(caller: Caller | null): string | null {
  return caller?.kind === "user" ? (caller.apiKey?.id ?? null) : null;
}
