import { Redis } from "ioredis";
import { watchRedis } from "@/lib/redis/redis-health";
import { setting } from "@/lib/config/settings";
import { processState } from "@/lib/process-state";

/**
 * Every Redis connection of this process, and nothing else opens one:
 *
 * - the command connection: rate limits (lib/ratelimit/limiter.ts), publishing pub/sub hints
 *   and the readiness probe. Its health is watched (redis-health.ts), so the limiter answers
 *   from memory while Redis is sick;
 * - the subscriber connection: a connection in subscriber mode can do nothing else, so pub/sub
 *   listens on a dedicated one (lib/redis/pubsub.ts).
 *
 * Both are created on first use (never at import, so `next build` opens nothing), both are
 * null when `REDIS_URL` is unset, and ioredis reconnects each by itself.
 */

interface Connections {
  command?: Redis | null;
  subscriber?: Redis | null;
}

const globalForRedis = processState<{ switchboardRedis?: Connections }>();

function connections(): Connections {
  return (globalForRedis.switchboardRedis ??= {});
}

const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect attempts back off to one a second, so shared limits resume soon after Redis returns. */
const MAX_RECONNECT_DELAY_MS = 1_000;
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);

/** The command connection (rate limits, publishing, readiness), or null without `REDIS_URL`. */
export function commandRedis(): Redis | null {
  const c = connections();
  if (c.command !== undefined) return c.command;
  const url = setting("REDIS_URL");
  if (!url) return (c.command = null);
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    // Rate-limit calls must never wait on a sick Redis: a command unanswered after this long
    // fails, and the limiter answers from memory (see redis-health.ts).
    commandTimeout: setting("RATE_LIMIT_REDIS_TIMEOUT_MS"),
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
  });
  // Also the "error" listener without which ioredis would crash the process on a lost connection.
  watchRedis(client);
  client.connect().catch(() => undefined);
  return (c.command = client);
}

/**
 * The subscriber connection, or null without `REDIS_URL`. It waits as long as it takes (no
 * command timeout) and re-subscribes by itself (autoResubscribe) when Redis returns.
 */
export function subscriberRedis(): Redis | null {
  const c = connections();
  if (c.subscriber !== undefined) return c.subscriber;
  const url = setting("REDIS_URL");
  if (!url) return (c.subscriber = null);
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: reconnectDelay });
  client.on("error", () => undefined); // the command connection's health watch reports outages, once
  client.connect().catch(() => undefined);
  return (c.subscriber = client);
}

/** Closes both connections for good (a test process done with its Redis). */
export function disconnectRedis(): void {
  const c = connections();
  c.command?.disconnect();
  c.subscriber?.disconnect();
}
