import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

export type { PrismaClient };

const globalForDb = globalThis as unknown as { switchboardDb?: PrismaClient };

/** Local default used by `npm start` when no DATABASE_URL is set (embedded PostgreSQL). */
export const DEFAULT_DATABASE_URL = "postgresql://postgres:postgres@127.0.0.1:54329/switchboard";

/**
 * The process-wide Prisma client, created on first use so that importing a module
 * (as `next build` does) never opens a connection.
 */
export function db(): PrismaClient {
  if (!globalForDb.switchboardDb) {
    const adapter = new PrismaPg({
      connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      connectionTimeoutMillis: 3_000,
    });
    globalForDb.switchboardDb = new PrismaClient({ adapter });
  }
  return globalForDb.switchboardDb;
}
