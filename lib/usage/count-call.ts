import type { CallAnswer, CallContext, CallKind } from "@/lib/connectors/pipeline/call-context";
import { latencyBucket } from "@/lib/usage/latency-buckets";
import { cellKey, newCell, usageBuffer } from "@/lib/usage/usage-buffer";
import { startUsageFlushes } from "@/lib/usage/flush-usage";

/**
 * The call pipeline's usage step (lib/connectors/pipeline): counts every finished call in flight
 * — tools/call, prompts/get, an upstream's resources/read — in
 * this process's memory, no database round trip. The counts reach the database in one batch
 * every USAGE_FLUSH_INTERVAL_MS and when the instance stops (lib/usage/flush-usage.ts), so the
 * tools/call path pays a few map updates, and N instances write N small batches a period
 * instead of one upsert per call on the same hot rows.
 */

const HOUR_MS = 3_600_000;
const MESSAGE_CHARS = 500;

/**
 * The name a call is counted under in the usage table's `tool` column: a tool's upstream name;
 * `prompts/get <name>` for a prompt; `resources/read` for every resource of a connector (URIs
 * are unbounded, one row per URI would not be).
 */
export function usageName(kind: CallKind, upstreamName: string): string {
  if (kind === "tools/call") return upstreamName;
  return kind === "prompts/get" ? `prompts/get ${upstreamName}` : "resources/read";
}

export function countCall(ctx: CallContext, answer: CallAnswer<unknown>): void {
  const { server, configVersion } = ctx.view.snapshot;
  const { durationMs } = answer;
  const now = Date.now();
  const at = {
    orgId: server.orgId,
    workspaceId: server.workspaceId,
    serverId: server.id,
    connectorId: ctx.connector.id,
    tool: usageName(ctx.kind, ctx.names.upstream),
    userId: ctx.caller.kind === "user" ? ctx.caller.userId : "",
    hour: now - (now % HOUR_MS),
  };
  const buffer = usageBuffer();
  const key = cellKey(at);
  let cell = buffer.cells.get(key);
  if (!cell) buffer.cells.set(key, (cell = newCell({ ...at, configVersion })));
  cell.calls += 1;
  cell.latencySumMs += durationMs;
  cell.histogram[latencyBucket(durationMs)] += 1;
  const message = answer.outcome === "ok" ? null : errorMessage(answer);
  if (message !== null) {
    cell.errors += 1;
    cell.lastError = message;
    cell.lastErrorAt = now;
    cell.configVersion = configVersion;
  }
  if (!answer.notSent) countHealth(at.orgId, at.connectorId, configVersion, now, durationMs, answer.outcome === "error" ? message : null);
  startUsageFlushes();
}

/**
 * Health counts what the upstream did: an answer, even an error answer (a 404, an isError
 * result), means it is reachable; only a call that could not be made or finished is a failure.
 */
function countHealth(orgId: string, connectorId: string, configVersion: number, now: number, durationMs: number, failure: string | null): void {
  const { health } = usageBuffer();
  let cell = health.get(connectorId);
  if (!cell) {
    cell = { orgId, connectorId, configVersion, lastSuccessAt: null, lastLatencyMs: null, lastFailureAt: null, lastFailureMessage: null };
    health.set(connectorId, cell);
  }
  if (failure === null) {
    cell.lastSuccessAt = now;
    cell.lastLatencyMs = durationMs;
  } else {
    cell.lastFailureAt = now;
    cell.lastFailureMessage = failure;
    cell.configVersion = configVersion;
  }
}

function errorMessage(answer: CallAnswer<unknown>): string {
  if (answer.errorMessage) return answer.errorMessage.slice(0, MESSAGE_CHARS);
  const content = (answer.result as { content?: Array<{ type: string; text?: string }> } | undefined)?.content ?? [];
  const text = content
    .map((c) => (c.type === "text" ? (c.text ?? "") : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return (text || "The call answered an error without a message.").slice(0, MESSAGE_CHARS);
}
