import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";
import { logger } from "@/lib/log";
import { commandRedis, subscriberRedis } from "@/lib/redis/redis-connections";
import { processState } from "@/lib/process-state";

/**
 * Cross-instance hints over Redis pub/sub ("organization X changed its configuration: look
 * again"), so live MCP sessions on every instance react at once instead of at their next poll.
 * Without REDIS_URL, or while Redis is away, a message reaches this instance's subscribers
 * only. Messages are hints and may be lost: subscribers must still converge by their own
 * polling (lib/config-version: the versions in PostgreSQL are the truth).
 */

const CHANNEL_PREFIX = "sb:";

interface PubSubState {
  local: EventEmitter;
  /** The subscriber connection whose messages are relayed to `local` (wired once). */
  wired: Redis | null;
  channels: Set<string>;
}

const globalForPubSub = processState<{ switchboardPubSub?: PubSubState }>();

function state(): PubSubState {
  if (!globalForPubSub.switchboardPubSub) {
    const local = new EventEmitter();
    local.setMaxListeners(0);
    globalForPubSub.switchboardPubSub = { local, wired: null, channels: new Set() };
  }
  return globalForPubSub.switchboardPubSub;
}

/** The subscriber connection with its messages relayed to this instance's listeners; null without REDIS_URL. */
function wiredSubscriber(s: PubSubState): Redis | null {
  const client = subscriberRedis();
  if (client && s.wired !== client) {
    s.wired = client;
    client.on("message", (channel: string, message: string) => {
      if (channel.startsWith(CHANNEL_PREFIX)) s.local.emit(channel.slice(CHANNEL_PREFIX.length), message);
    });
  }
  return client;
}

/**
 * Calls `handler` with every message published on `channel` by any instance (this one
 * included). Returns the unsubscribe function.
 */
export function subscribe(channel: string, handler: (message: string) => void): () => void {
  const s = state();
  s.local.on(channel, handler);
  const client = wiredSubscriber(s);
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
  const client = commandRedis();
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
