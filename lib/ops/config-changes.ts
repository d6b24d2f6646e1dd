import { publish, subscribe } from "@/lib/redis/pubsub";

/**
 * "Some configuration changed: look again." Sent after a change has committed, so live MCP
 * sessions on every instance reconcile at once rather than at their next poll. A hint only:
 * the config versions in PostgreSQL stay the truth, and polling still converges if it is lost.
 */
const CHANNEL = "config-changed";

export function announceConfigChange(): void {
  void publish(CHANNEL).catch(() => undefined);
}

/** Calls `handler` on every announcement (from any instance); returns the unsubscribe. */
export function onConfigChange(handler: () => void): () => void {
  return subscribe(CHANNEL, handler);
}
