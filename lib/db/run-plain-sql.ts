import { db, dbPool } from "@/lib/db/client";

/**
 * A statement of the MCP hot path sent as plain SQL through the pg pool under db()'s Prisma
 * client (the same pool and connections), as a named prepared statement: PostgreSQL parses and
 * plans it once per connection, and none of the client's per-query work (building the query,
 * its pipeline, mapping each argument and row) is done. In the tools/call profile of bench:mcp
 * that work was most of the database client's share of a call (bench/README.md). A statement
 * keeps one text whatever its number of rows (arrays through `unnest`), which is what lets it
 * be prepared once.
 *
 * When db()'s client is not one it made (a test put another in its place) the statement goes
 * through that client's raw query instead, so it still reaches the database the client names.
 */
export interface PlainStatement {
  /** The prepared statement's name on every connection: one name, one text. */
  name: string;
  text: string;
}

export async function runPlainSql<Row>(statement: PlainStatement, values: unknown[]): Promise<Row[]> {
  const pool = dbPool();
  if (!pool) return db().$queryRawUnsafe<Row[]>(statement.text, ...values);
  const result = await pool.query({ name: statement.name, text: statement.text, values });
  return result.rows as Row[];
}
