import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import { assertIfMatch, type IfMatch } from "@/lib/api/if-match";

type Tx = Pick<Prisma.TransactionClient, "$queryRaw">;

/** The parent rows whose whole child sets are replaced (and whose writes honour If-Match). */
export type LockableTable = "mcp_roles" | "connectors" | "mcp_servers" | "workspaces" | "skills" | "files" | "organizations";

/**
 * Locks one row of an organization (`SELECT … FOR UPDATE`) until the caller's transaction ends.
 * Replacing a set is delete-then-insert; under READ COMMITTED two such transactions do not see
 * each other's inserts and both commit, leaving the union. Taking the parent's row lock first
 * makes every replacement of the same set wait for the one before it, so exactly one submitted
 * set is left. The organization is part of the where, like every other tenant query; false when
 * no such row exists (another tenant's, or deleted meanwhile).
 */
export async function lockRow(tx: Tx, table: LockableTable, id: string, orgId: string): Promise<boolean> {
  const column = table === "organizations" ? "id" : "org_id";
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${id} AND ${Prisma.raw(`"${column}"`)} = ${orgId} FOR UPDATE`;
  return rows.length === 1;
}

/**
 * Locks the row for this write and, when the write carries If-Match, compares it with the
 * object as `currentView` reads it under that lock (lib/api/if-match.ts). NotFoundError(`what`)
 * when the row is gone.
 */
export async function lockForWrite(
  tx: Tx,
  target: { table: LockableTable; id: string; orgId: string; what: string },
  ifMatch: IfMatch | undefined,
  currentView: () => Promise<unknown>,
): Promise<void> {
  if (!(await lockRow(tx, target.table, target.id, target.orgId))) throw new NotFoundError(target.what);
  if (ifMatch === undefined) return;
  const view = await currentView();
  if (view === null || view === undefined) throw new NotFoundError(target.what);
  assertIfMatch(ifMatch, view);
}
