import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "@/lib/db/migrate";

/**
 * An empty, migrated database on the test run's PostgreSQL server, for an app that must start
 * as a fresh install does (no user yet: /setup makes the first one). Dropped by the returned stop.
 */

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(sharedUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fresh_${randomBytes(4).toString("hex")}`;
  await adminQuery(sharedUrl, `CREATE DATABASE ${name}`);
  const url = new URL(sharedUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return { url: url.toString(), drop: () => adminQuery(sharedUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
