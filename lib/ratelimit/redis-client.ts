import { Redis } from "ioredis";
import { logger } from "@/lib/log";

const globalForRedis = globalThis as unknown as { switchboardRateLimitRedis?: Redis | null };

/** Rate-limit calls must never wait on a sick Redis: they fall back to the in-process limiter. */
const COMMAND_TIMEOUT_MS = 300;
const CONNECT_TIMEOUT_MS = 2_000;
const ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * The Redis connection used by rate limiters, or null when `REDIS_URL` is unset. Created on
 * first use (never at import, so `next build` opens nothing); ioredis reconnects by itself.
 */
export function getRateLimitRedis(): Redis | null {
  if (globalForRedis.switchboardRateLimitRedis !== undefined) return globalForRedis.switchboardRateLimitRedis;
  const url = process.env.REDIS_URL;
  if (!url) {
    globalForRedis.switchboardRateLimitRedis = null;
    return null;
  }
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  let lastErrorLoggedAt = 0;
  // Without a listener an "error" event would crash the process; log at most once a minute.
  client.on("error", (error: Error) => {
    if (Date.now() - lastErrorLoggedAt < ERROR_LOG_INTERVAL_MS) return;
    lastErrorLoggedAt = Date.now();
    logger.warn({ err: error.message }, "rate-limit Redis unavailable; using the in-process limiter meanwhile");
  });
  client.connect().catch(() => undefined);
  globalForRedis.switchboardRateLimitRedis = client;
  return client;
}
