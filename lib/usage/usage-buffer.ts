import { addHistogram, emptyHistogram } from "@/lib/usage/latency-buckets";
import { processState } from "@/lib/process-state";

/**
 * What this process has counted of tool calls and not yet written: per-hour usage cells and
 * the latest success/failure per connector. Kept on globalThis because Next.js gives each route
 * bundle its own copy of this module, and every bundle must add to the same buffer.
 */

export interface UsageCell {
  orgId: string;
  workspaceId: string;
  serverId: string;
  connectorId: string;
  tool: string;
  /** "" for the instance credential. */
  userId: string;
  /** Start of the UTC hour, epoch ms. */
  hour: number;
  calls: number;
  errors: number;
  latencySumMs: number;
  histogram: number[];
  lastError: string | null;
  lastErrorAt: number | null;
  /** The configuration version the calls ran under: which secret headers to scrub from the error. */
  configVersion: number;
}

export interface HealthCell {
  orgId: string;
  connectorId: string;
  configVersion: number;
  lastSuccessAt: number | null;
  lastLatencyMs: number | null;
  lastFailureAt: number | null;
  lastFailureMessage: string | null;
}

export interface UsageBuffer {
  cells: Map<string, UsageCell>;
  health: Map<string, HealthCell>;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
  lastPruneAt: number;
}

const globalForUsage = processState<{ switchboardUsage?: UsageBuffer }>();

export function usageBuffer(): UsageBuffer {
  return (globalForUsage.switchboardUsage ??= { cells: new Map(), health: new Map(), lastPruneAt: 0 });
}

/** Takes everything buffered so far, leaving the buffer empty for the calls that follow. */
export function takeBuffered(): { cells: UsageCell[]; health: HealthCell[] } {
  const buffer = usageBuffer();
  const taken = { cells: [...buffer.cells.values()], health: [...buffer.health.values()] };
  buffer.cells = new Map();
  buffer.health = new Map();
  return taken;
}

export function cellKey(c: Pick<UsageCell, "orgId" | "workspaceId" | "serverId" | "connectorId" | "tool" | "userId" | "hour">): string {
  return `${c.orgId}\u0000${c.workspaceId}\u0000${c.serverId}\u0000${c.connectorId}\u0000${c.tool}\u0000${c.userId}\u0000${c.hour}`;
}

/** Adds `cell` to the buffer (a write that failed is put back this way, to be retried). */
export function mergeCell(cell: UsageCell): void {
  const { cells } = usageBuffer();
  const key = cellKey(cell);
  const known = cells.get(key);
  if (!known) {
    cells.set(key, { ...cell, histogram: [...cell.histogram] });
    return;
  }
  known.calls += cell.calls;
  known.errors += cell.errors;
  known.latencySumMs += cell.latencySumMs;
  addHistogram(known.histogram, cell.histogram);
  if (cell.lastErrorAt !== null && (known.lastErrorAt === null || cell.lastErrorAt >= known.lastErrorAt)) {
    known.lastError = cell.lastError;
    known.lastErrorAt = cell.lastErrorAt;
    known.configVersion = cell.configVersion;
  }
}

/** Adds a connector's latest success or failure to the buffer; newer wins. */
export function mergeHealth(cell: HealthCell): void {
  const { health } = usageBuffer();
  const known = health.get(cell.connectorId);
  if (!known) {
    health.set(cell.connectorId, { ...cell });
    return;
  }
  if (cell.lastSuccessAt !== null && (known.lastSuccessAt === null || cell.lastSuccessAt >= known.lastSuccessAt)) {
    known.lastSuccessAt = cell.lastSuccessAt;
    known.lastLatencyMs = cell.lastLatencyMs;
  }
  if (cell.lastFailureAt !== null && (known.lastFailureAt === null || cell.lastFailureAt >= known.lastFailureAt)) {
    known.lastFailureAt = cell.lastFailureAt;
    known.lastFailureMessage = cell.lastFailureMessage;
    known.configVersion = cell.configVersion;
  }
}

export function newCell(base: Omit<UsageCell, "calls" | "errors" | "latencySumMs" | "histogram" | "lastError" | "lastErrorAt">): UsageCell {
  return { ...base, calls: 0, errors: 0, latencySumMs: 0, histogram: emptyHistogram(), lastError: null, lastErrorAt: null };
}
