import { db } from "@/lib/db/client";
import type { HealthCell, UsageCell } from "@/lib/usage/usage-buffer";

/**
 * The two statements a usage flush runs: every buffered cell added to its hourly row, and
 * every connector's latest success/failure kept where newer. Rows of an org or connector
 * deleted meanwhile are skipped. Counts add up, so instances flushing the same row at once
 * each add their own share; latest-wins fields compare timestamps.
 */

export async function writeUsageCells(cells: UsageCell[]): Promise<void> {
  if (cells.length === 0) return;
  const rows = cells.map((c) => ({
    org_id: c.orgId,
    workspace_id: c.workspaceId,
    server_id: c.serverId,
    connector_id: c.connectorId,
    tool: c.tool,
    user_id: c.userId,
    hour_ms: c.hour,
    calls: c.calls,
    errors: c.errors,
    latency_sum_ms: c.latencySumMs,
    buckets: c.histogram,
    last_error: c.lastError,
    last_error_at_ms: c.lastErrorAt,
  }));
  await db().$executeRaw`
    INSERT INTO usage_buckets AS u (org_id, workspace_id, server_id, connector_id, tool, user_id, hour, calls, errors, latency_sum_ms, latency_buckets, last_error, last_error_at)
    SELECT r.org_id, r.workspace_id, r.server_id, r.connector_id, r.tool, r.user_id, to_timestamp(r.hour_ms / 1000.0) AT TIME ZONE 'UTC',
           r.calls, r.errors, r.latency_sum_ms, ARRAY(SELECT jsonb_array_elements_text(r.buckets)::int), r.last_error,
           to_timestamp(r.last_error_at_ms / 1000.0) AT TIME ZONE 'UTC'
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(org_id text, workspace_id text, server_id text, connector_id text, tool text, user_id text,
         hour_ms bigint, calls int, errors int, latency_sum_ms bigint, buckets jsonb, last_error text, last_error_at_ms bigint)
    WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.id = r.org_id)
    ON CONFLICT (org_id, hour, workspace_id, server_id, connector_id, tool, user_id) DO UPDATE SET
      calls = u.calls + EXCLUDED.calls,
      errors = u.errors + EXCLUDED.errors,
      latency_sum_ms = u.latency_sum_ms + EXCLUDED.latency_sum_ms,
      latency_buckets = ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0) FROM unnest(u.latency_buckets, EXCLUDED.latency_buckets) WITH ORDINALITY AS t(a, b, i) ORDER BY i),
      last_error = CASE WHEN EXCLUDED.last_error_at >= coalesce(u.last_error_at, EXCLUDED.last_error_at) THEN EXCLUDED.last_error ELSE u.last_error END,
      last_error_at = greatest(u.last_error_at, EXCLUDED.last_error_at)`;
}

/** A connector's outcome of a "Test connection", written at once with the latest-wins rules of a flush. */
export interface TestOutcome {
  ok: boolean;
  message: string;
  at: number;
}

export async function writeHealthCells(cells: HealthCell[], test?: TestOutcome): Promise<void> {
  if (cells.length === 0) return;
  const rows = cells.map((c) => ({
    connector_id: c.connectorId,
    org_id: c.orgId,
    success_ms: c.lastSuccessAt,
    latency_ms: c.lastLatencyMs,
    failure_ms: c.lastFailureAt,
    failure_message: c.lastFailureMessage,
    test_ms: test ? test.at : null,
    test_ok: test ? test.ok : null,
    test_message: test ? test.message : null,
  }));
  await db().$executeRaw`
    INSERT INTO connector_health AS h (connector_id, org_id, last_success_at, last_latency_ms, last_failure_at, last_failure_message, last_test_at, last_test_ok, last_test_message)
    SELECT r.connector_id, r.org_id, to_timestamp(r.success_ms / 1000.0) AT TIME ZONE 'UTC', r.latency_ms,
           to_timestamp(r.failure_ms / 1000.0) AT TIME ZONE 'UTC', r.failure_message,
           to_timestamp(r.test_ms / 1000.0) AT TIME ZONE 'UTC', r.test_ok, r.test_message
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(connector_id text, org_id text, success_ms bigint, latency_ms int,
         failure_ms bigint, failure_message text, test_ms bigint, test_ok boolean, test_message text)
    WHERE EXISTS (SELECT 1 FROM connectors c WHERE c.id = r.connector_id AND c.org_id = r.org_id)
    ON CONFLICT (connector_id) DO UPDATE SET
      last_latency_ms = CASE WHEN EXCLUDED.last_success_at >= coalesce(h.last_success_at, EXCLUDED.last_success_at) THEN EXCLUDED.last_latency_ms ELSE h.last_latency_ms END,
      last_success_at = greatest(h.last_success_at, EXCLUDED.last_success_at),
      last_failure_message = CASE WHEN EXCLUDED.last_failure_at >= coalesce(h.last_failure_at, EXCLUDED.last_failure_at) THEN EXCLUDED.last_failure_message ELSE h.last_failure_message END,
      last_failure_at = greatest(h.last_failure_at, EXCLUDED.last_failure_at),
      last_test_ok = coalesce(EXCLUDED.last_test_ok, h.last_test_ok),
      last_test_message = CASE WHEN EXCLUDED.last_test_at IS NULL THEN h.last_test_message ELSE EXCLUDED.last_test_message END,
      last_test_at = coalesce(EXCLUDED.last_test_at, h.last_test_at)`;
}

/** Deletes the hourly rows older than `cutoff` (the retention), for every org at once. */
export async function pruneUsageBefore(cutoff: Date): Promise<number> {
  return db().$executeRaw`DELETE FROM usage_buckets WHERE hour < ${cutoff.toISOString()}::timestamptz AT TIME ZONE 'UTC'`;
}
