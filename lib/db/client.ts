import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

export type { PrismaClient };

const globalForDb = globalThis as unknown as { switchboardDb?: PrismaClient };

/** Local default used by `npm start` when no DATABASE_URL is set (embedded PostgreSQL). */
export const DEFAULT_DATABASE_URL = "postgresql://postgres:postgres@127.0.0.1:25432/switchboard";

/**
 * The process-wide Prisma client, created on first use so that importing a module
 * (as `next build` does) never opens a connection.
 */
export function db(): PrismaClient {
  if (!globalForDb.switchboardDb) {
    const adapter = new PrismaPg({
      connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      // PostgreSQL away → requests fail within a second (503), stalled → nothing hangs for long;
      // the pool reconnects by itself when it returns. Waiting for a free pool slot counts too.
      connectionTimeoutMillis: positiveIntFromEnv("DB_CONNECT_TIMEOUT_MS", 1_000),
      query_timeout: positiveIntFromEnv("DB_QUERY_TIMEOUT_MS", 10_000),
      max: positiveIntFromEnv("DB_POOL_MAX", 10),
    });
    globalForDb.switchboardDb = new PrismaClient({ adapter });
  }
  return globalForDb.switchboardDb;
}

function positiveIntFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
