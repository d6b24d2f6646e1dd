import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { setting } from "@/lib/config/settings";

export type { PrismaClient };

const globalForDb = globalThis as unknown as { switchboardDb?: PrismaClient };

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
    const adapter = new PrismaPg({
      connectionString: setting("DATABASE_URL") ?? embeddedDatabaseUrl(),
      // PostgreSQL away → requests fail within a second (503), stalled → nothing hangs for long;
      // the pool reconnects by itself when it returns. Waiting for a free pool slot counts too.
      connectionTimeoutMillis: setting("DB_CONNECT_TIMEOUT_MS"),
      query_timeout: setting("DB_QUERY_TIMEOUT_MS"),
      max: setting("DB_POOL_MAX"),
    });
    globalForDb.switchboardDb = new PrismaClient({ adapter });
  }
  return globalForDb.switchboardDb;
}
