import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { LATENCY_BUCKET_COUNT } from "@/lib/usage/latency-buckets";

/**
 * Reads of the hourly usage rows of one org (optionally one workspace) since an instant. Every
 * statement names the org in its WHERE: a caller's scope is checked before, and these never
 * see another org's rows. Latency buckets are summed in the database (unnest), so a read is
 * one row per (key, bucket), not one per stored hour.
 */

export interface UsageScope {
  orgId: string;
  workspaceId: string | null;
  from: Date;
}

export type Dimension = "server" | "connector" | "tool" | "user";

const KEY_COLUMNS: Record<Dimension, Prisma.Sql> = {
  server: Prisma.sql`b.server_id`,
  connector: Prisma.sql`b.connector_id`,
  tool: Prisma.sql`b.connector_id, b.tool`,
  user: Prisma.sql`b.user_id`,
};

export interface KeyedNumbers {
  keys: string[];
  histogram: number[];
  errors: number;
}

function scopeWhere(scope: UsageScope): Prisma.Sql {
  const from = scope.from.toISOString();
  const workspace = scope.workspaceId === null ? Prisma.empty : Prisma.sql`AND b.workspace_id = ${scope.workspaceId}`;
  return Prisma.sql`b.org_id = ${scope.orgId} ${workspace} AND b.hour >= ${from}::timestamptz AT TIME ZONE 'UTC'`;
}

/** Calls (as their latency histogram) and errors per server, connector, tool or user. */
export async function readByDimension(scope: UsageScope, dimension: Dimension): Promise<KeyedNumbers[]> {
  const keys = KEY_COLUMNS[dimension];
  const rows = await db().$queryRaw<Array<Record<string, unknown> & { i: number; n: bigint; errors: bigint | null }>>`
    SELECT ${keys}, u.i::int AS i, sum(u.v)::bigint AS n, sum(b.errors) FILTER (WHERE u.i = 1)::bigint AS errors
    FROM usage_buckets b, unnest(b.latency_buckets) WITH ORDINALITY AS u(v, i)
    WHERE ${scopeWhere(scope)}
    GROUP BY ${keys}, u.i`;
  const names = dimension === "tool" ? ["connector_id", "tool"] : [`${dimension}_id`];
  const byKey = new Map<string, KeyedNumbers>();
  for (const row of rows) {
    const values = names.map((n) => String(row[n]));
    const id = values.join("\u0000");
    let entry = byKey.get(id);
    if (!entry) byKey.set(id, (entry = { keys: values, histogram: new Array<number>(LATENCY_BUCKET_COUNT).fill(0), errors: 0 }));
    if (row.i >= 1 && row.i <= LATENCY_BUCKET_COUNT) entry.histogram[row.i - 1] = Number(row.n);
    if (row.errors !== null) entry.errors += Number(row.errors);
  }
  return [...byKey.values()];
}

/** Calls and errors per stored hour. */
export async function readHourly(scope: UsageScope): Promise<Array<{ hour: Date; calls: number; errors: number }>> {
  return db().$queryRaw`
    SELECT b.hour AS hour, sum(b.calls)::int AS calls, sum(b.errors)::int AS errors
    FROM usage_buckets b WHERE ${scopeWhere(scope)} GROUP BY b.hour ORDER BY b.hour`;
}

/** The latest error message of each tool in the period. */
export async function readLastErrors(scope: UsageScope): Promise<Array<{ connector_id: string; tool: string; last_error: string; last_error_at: Date }>> {
  return db().$queryRaw`
    SELECT DISTINCT ON (b.connector_id, b.tool) b.connector_id, b.tool, b.last_error, b.last_error_at
    FROM usage_buckets b WHERE ${scopeWhere(scope)} AND b.last_error IS NOT NULL
    ORDER BY b.connector_id, b.tool, b.last_error_at DESC`;
}
