import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { commandRedis } from "@/lib/redis/redis-connections";
import { waitUntilReady } from "@/lib/redis/redis-health";
import { processState } from "@/lib/process-state";

/**
 * What /api/ready reports: whether this instance can serve real requests. The database is
 * always needed; Redis only when REDIS_URL is set (without it limits are per process by design).
 */
export type PartStatus = "up" | "down" | "not configured";

export interface Readiness {
  ready: boolean;
  checks: { database: PartStatus; redis: PartStatus };
}

/** Each probe gets this long; a stalled part counts as down rather than holding the probe. */
const PROBE_TIMEOUT_MS = 1_000;
/**
 * Until the database has answered once, a probe may also wait for the pool's first connection
 * and the client's start (seconds on a loaded machine): a fresh instance is starting, not down.
 */
const FIRST_PROBE_TIMEOUT_MS = 5_000;
const globalForReadiness = processState<{ switchboardDatabaseAnswered?: boolean }>();

/** Probes the database and (when configured) Redis, concurrently. */
export async function checkReadiness(): Promise<Readiness> {
  const [database, redis] = await Promise.all([probeDatabase(), probeRedis()]);
  return { ready: database === "up" && redis !== "down", checks: { database, redis } };
}

async function probeDatabase(): Promise<PartStatus> {
  try {
    const timeoutMs = globalForReadiness.switchboardDatabaseAnswered ? PROBE_TIMEOUT_MS : FIRST_PROBE_TIMEOUT_MS;
    await withTimeout(db().$queryRaw`SELECT 1`, "database", timeoutMs);
    globalForReadiness.switchboardDatabaseAnswered = true;
    return "up";
  } catch (error) {
    logger.warn({ reason: reasonOf(error) }, "readiness: database is down");
    return "down";
  }
}

async function probeRedis(): Promise<PartStatus> {
  const client = commandRedis();
  if (!client) return "not configured";
  // The first probe after start creates the connection: wait for it (within the probe's time)
  // instead of reporting a client that has not connected yet as down.
  if (!(await waitUntilReady(client, PROBE_TIMEOUT_MS))) {
    logger.warn({ status: client.status }, "readiness: Redis is down");
    return "down";
  }
  try {
    await withTimeout(client.ping(), "redis");
    return "up";
  } catch (error) {
    logger.warn({ reason: reasonOf(error) }, "readiness: Redis is down");
    return "down";
  }
}

function withTimeout<T>(promise: Promise<T>, part: string, ms = PROBE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${part} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The last line of an error message: Prisma's first lines quote our own source code. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n").filter(Boolean).at(-1) ?? error.name) : String(error);
}
