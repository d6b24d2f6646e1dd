import type { ClientOptions } from "@modelcontextprotocol/client";

/**
 * A pooled upstream client's list_changed handlers: no auto-refresh (the connector is
 * re-discovered and stored instead, lib/connectors/rediscover-connector.ts), every list to
 * `changed`. The SDK sets them up only for lists the upstream declares `listChanged` for,
 * and on a 2026-07-28 connection opens the `subscriptions/listen` stream that carries them.
 */
export function listChangedHandlers(changed: () => void): NonNullable<ClientOptions["listChanged"]> {
  const options = { autoRefresh: false, debounceMs: 0, onChanged: () => changed() };
  return { tools: options, prompts: options, resources: options };
}
