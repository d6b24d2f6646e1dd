import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { keyWorkspaceOf, orgsManagedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { addHistogram, emptyHistogram, latencyQuantile } from "@/lib/usage/latency-buckets";
import { type KeyedNumbers, readByDimension, readHourly, readLastErrors, type UsageScope } from "@/lib/usage/read-usage-rows";
import type { FailingTool, ToolUsageRow, UsageNumbers, UsagePoint, UsageRange, UsageReport, UsageRow } from "@/lib/usage/schemas";
import { usageNames } from "@/lib/usage/usage-names";

/**
 * The usage picture of an org or one of its workspaces (its owners and admins): calls, error
 * rate and p50/p95 per server, connector, tool and user over the last 24 h, 7 d or 30 d, from
 * the hourly aggregate the call path keeps (lib/usage/count-call.ts) — never the audit log.
 */

const HOUR_MS = 3_600_000;
const RANGES: Record<UsageRange, { hours: number; stepHours: number }> = {
  "24h": { hours: 24, stepHours: 1 },
  "7d": { hours: 168, stepHours: 6 },
  "30d": { hours: 720, stepHours: 24 },
};
const FAILING_TOOLS = 10;

export async function orgUsage(caller: Caller, orgId: string, range: UsageRange): Promise<UsageReport> {
  assertCredentialMay(caller, "usage.read");
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  // An API key sees its own workspace's calls only (keyWorkspaceOf says why).
  return usageReport(org.id, keyWorkspaceOf(caller), range);
}

export async function workspaceUsage(caller: Caller, workspaceId: string, range: UsageRange): Promise<UsageReport> {
  assertCredentialMay(caller, "usage.read");
  const workspace = await findScopedWorkspace(db(), workspaceId, workspacesManagedBy(caller));
  return usageReport(workspace.orgId, workspace.id, range);
}

function numbers(histogram: number[], errors: number): UsageNumbers {
  const calls = histogram.reduce((a, b) => a + b, 0);
  return { calls, errors, errorRate: calls === 0 ? 0 : errors / calls, p50Ms: latencyQuantile(histogram, 0.5), p95Ms: latencyQuantile(histogram, 0.95) };
}

const byCalls = (a: { calls: number }, b: { calls: number }) => b.calls - a.calls;

async function usageReport(orgId: string, workspaceId: string | null, range: UsageRange): Promise<UsageReport> {
  const { hours, stepHours } = RANGES[range];
  const now = Date.now();
  const to = now - (now % HOUR_MS) + HOUR_MS;
  const scope: UsageScope = { orgId, workspaceId, from: new Date(to - hours * HOUR_MS) };
  const [servers, connectors, tools, users, hourly, lastErrors] = await Promise.all([
    readByDimension(scope, "server"),
    readByDimension(scope, "connector"),
    readByDimension(scope, "tool"),
    readByDimension(scope, "user"),
    readHourly(scope),
    readLastErrors(scope),
  ]);
  const names = await usageNames(orgId, { servers: servers.map((s) => s.keys[0]), connectors: connectors.map((c) => c.keys[0]), users: users.map((u) => u.keys[0]) });
  const row = (k: KeyedNumbers, name: string): UsageRow => ({ id: k.keys[0], name, ...numbers(k.histogram, k.errors) });
  const toolRows: ToolUsageRow[] = tools
    .map((k) => ({ ...row(k, k.keys[1]), id: `${k.keys[0]}/${k.keys[1]}`, connectorId: k.keys[0], connectorName: names.connector(k.keys[0]), tool: k.keys[1] }))
    .sort(byCalls);
  const total = connectors.reduce((h, k) => addHistogram(h, k.histogram), emptyHistogram());
  return {
    range,
    from: scope.from.toISOString(),
    to: new Date(to).toISOString(),
    stepSeconds: stepHours * 3600,
    totals: numbers(total, connectors.reduce((n, k) => n + k.errors, 0)),
    series: series(hourly, scope.from.getTime(), to, stepHours * HOUR_MS),
    servers: servers.map((k) => row(k, names.server(k.keys[0]))).sort(byCalls),
    connectors: connectors.map((k) => row(k, names.connector(k.keys[0]))).sort(byCalls),
    tools: toolRows,
    users: users.map((k) => row(k, names.user(k.keys[0]))).sort(byCalls),
    failingTools: failingTools(toolRows, lastErrors),
  };
}

/** Every step of the period, zeros included, so a chart shows the quiet hours too. */
function series(hourly: Array<{ hour: Date; calls: number; errors: number }>, from: number, to: number, step: number): UsagePoint[] {
  const points: Array<{ start: number; calls: number; errors: number }> = [];
  for (let start = from; start < to; start += step) points.push({ start, calls: 0, errors: 0 });
  for (const h of hourly) {
    const point = points[Math.floor((h.hour.getTime() - from) / step)];
    if (!point) continue;
    point.calls += h.calls;
    point.errors += h.errors;
  }
  return points.map((p) => ({ ...p, start: new Date(p.start).toISOString() }));
}

function failingTools(tools: ToolUsageRow[], lastErrors: Awaited<ReturnType<typeof readLastErrors>>): FailingTool[] {
  const last = new Map(lastErrors.map((e) => [`${e.connector_id}/${e.tool}`, e]));
  return tools
    .filter((t) => t.errors > 0)
    .sort((a, b) => b.errors - a.errors || b.errorRate - a.errorRate)
    .slice(0, FAILING_TOOLS)
    .map((t) => {
      const e = last.get(t.id);
      return { ...t, lastError: e?.last_error ?? null, lastErrorAt: e ? e.last_error_at.toISOString() : null };
    });
}
