import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { setting } from "@/lib/config/settings";
import { processState } from "@/lib/process-state";

export type { PrismaClient };

const globalForDb = processState<{ switchboardDb?: PrismaClient; switchboardDbPools?: WeakMap<PrismaClient, pg.Pool> }>();
/** The pg pool under each client db() made (a client a test put in its place has none). */
const pools = (globalForDb.switchboardDbPools ??= new WeakMap());

/** The embedded PostgreSQL that `npm start` runs when DATABASE_URL is unset. */
export function embeddedDatabaseUrl(): string {
  return `postgresql://postgres:postgres@127.0.0.1:${setting("EMBEDDED_PG_PORT")}/switchboard`;
}

/**
 * The process-wide Prisma client, created on first use so that importing a module
 * (as `next build` does) never opens a connection.
 */
export function db(): PrismaClient {
  if (!globalForDb.switchboardDb) {
    const pool = new pg.Pool({
      connectionString: setting("DATABASE_URL") ?? embeddedDatabaseUrl(),
      // PostgreSQL away → requests fail within a second (503), stalled → nothing hangs for long;
      // the pool reconnects by itself when it returns. Waiting for a free pool slot counts too.
      connectionTimeoutMillis: setting("DB_CONNECT_TIMEOUT_MS"),
      query_timeout: setting("DB_QUERY_TIMEOUT_MS"),
      max: setting("DB_POOL_MAX"),
    });
    // The client owns the pool: $disconnect ends it, as it ends the one it would have made.
    const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    pools.set(client, pool);
    globalForDb.switchboardDb = client;
  }
  return globalForDb.switchboardDb;
}

/**
 * The pg pool db()'s client queries through, for the few hot-path statements sent as plain SQL
 * (lib/db/run-plain-sql.ts); null when the client is not one db() made or its pool has ended.
 */
export function dbPool(): pg.Pool | null {
  const pool = pools.get(db());
  return pool && !pool.ended ? pool : null;
}
