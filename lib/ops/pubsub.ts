import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { logger } from "@/lib/log";
import { getRateLimitRedis } from "@/lib/ratelimit/redis-client";
import { setting } from "@/lib/config/settings";

/**
 * Cross-instance hints over Redis pub/sub ("organization X changed its configuration: look
 * again"), so live MCP sessions on every instance react at once instead of at their next poll.
 * Without REDIS_URL, or while Redis is away, a message reaches this instance's subscribers
 * only. Messages are hints and may be lost: subscribers must still converge by their own
 * polling (lib/mcp/serve/live-watch.ts compares config versions in PostgreSQL).
 */

const CHANNEL_PREFIX = "sb:";

interface PubSubState {
  local: EventEmitter;
  /** Dedicated connection in subscriber mode (a subscribed connection cannot publish). */
  subscriber: Redis | null | undefined;
  channels: Set<string>;
}

const globalForPubSub = globalThis as unknown as { switchboardPubSub?: PubSubState };

function state(): PubSubState {
  if (!globalForPubSub.switchboardPubSub) {
    const local = new EventEmitter();
    local.setMaxListeners(0);
    globalForPubSub.switchboardPubSub = { local, subscriber: undefined, channels: new Set() };
  }
  return globalForPubSub.switchboardPubSub;
}

/** The subscriber connection, created on first subscribe; null without REDIS_URL. */
function subscriber(s: PubSubState): Redis | null {
  if (s.subscriber !== undefined) return s.subscriber;
  const url = setting("REDIS_URL");
  if (!url) return (s.subscriber = null);
  // Reconnects forever and re-subscribes by itself (autoResubscribe) when Redis returns.
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: (n: number) => Math.min(n * 100, 1_000) });
  client.on("error", () => undefined); // the rate-limit connection already reports Redis outages
  client.on("message", (channel: string, message: string) => {
    if (channel.startsWith(CHANNEL_PREFIX)) s.local.emit(channel.slice(CHANNEL_PREFIX.length), message);
  });
  client.connect().catch(() => undefined);
  return (s.subscriber = client);
}

/**
 * Calls `handler` with every message published on `channel` by any instance (this one
 * included). Returns the unsubscribe function.
 */
export function subscribe(channel: string, handler: (message: string) => void): () => void {
  const s = state();
  s.local.on(channel, handler);
  const client = subscriber(s);
  if (client && !s.channels.has(channel)) {
    s.channels.add(channel);
    client.subscribe(CHANNEL_PREFIX + channel).catch((error: Error) => logger.warn({ err: error.message, channel }, "pub/sub: subscribe failed"));
  }
  return () => void s.local.off(channel, handler);
}

/**
 * Sends `message` to the subscribers of `channel` on every instance. Never throws: when Redis
 * cannot take it, only this instance's subscribers get it (the others catch up by polling).
 */
export async function publish(channel: string, message = ""): Promise<void> {
  const client = getRateLimitRedis();
  if (client?.status === "ready") {
    try {
      await client.publish(CHANNEL_PREFIX + channel, message);
      return; // delivered to this instance's subscribers through Redis, like everyone else's
    } catch {
      // fall through: local delivery at least
    }
  }
  state().local.emit(channel, message);
}
