import { Redis } from "ioredis";
import { watchRedis } from "@/lib/ratelimit/redis-health";
import { setting } from "@/lib/config/settings";

const globalForRedis = globalThis as unknown as { switchboardRateLimitRedis?: Redis | null };

const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect attempts back off to one a second, so shared limits resume soon after Redis returns. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * The Redis connection used by rate limiters, or null when `REDIS_URL` is unset. Created on
 * first use (never at import, so `next build` opens nothing); ioredis reconnects by itself.
 */
export function getRateLimitRedis(): Redis | null {
  if (globalForRedis.switchboardRateLimitRedis !== undefined) return globalForRedis.switchboardRateLimitRedis;
  const url = setting("REDIS_URL");
  if (!url) {
    globalForRedis.switchboardRateLimitRedis = null;
    return null;
  }
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    // Rate-limit calls must never wait on a sick Redis: a command unanswered after this long
    // fails, and the limiter answers from memory (see redis-health.ts).
    commandTimeout: setting("RATE_LIMIT_REDIS_TIMEOUT_MS"),
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  // Also the "error" listener without which ioredis would crash the process on a lost connection.
  watchRedis(client);
  client.connect().catch(() => undefined);
  globalForRedis.switchboardRateLimitRedis = client;
  return client;
}
