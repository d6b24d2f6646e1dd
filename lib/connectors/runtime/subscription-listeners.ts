import type { Client } from "@modelcontextprotocol/client";

/**
 * Who listens to which upstream resource on a connection: the downstream sessions subscribed
 * through it (lib/connectors/runtime/resource-subscriptions.ts adds and removes them) and the
 * pool, which must not drop a connection as idle while one still listens. A leaf module, so
 * the pool and the subscriptions each load without the other.
 */

export type Listener = (uri: string) => void;

const listeners = new WeakMap<Client, Map<string, Set<Listener>>>();

/** The connection's listeners by URI; the first call routes its `notifications/resources/updated` to them. */
export function listenersOf(client: Client): Map<string, Set<Listener>> {
  let byUri = listeners.get(client);
  if (!byUri) {
    const fresh = new Map<string, Set<Listener>>();
    byUri = fresh;
    listeners.set(client, fresh);
    client.setNotificationHandler("notifications/resources/updated", (notification) => {
      const uri = notification.params.uri;
      for (const listener of fresh.get(uri) ?? []) listener(uri);
    });
  }
  return byUri;
}

/** The listeners of one URI, without routing anything (none: the connection never had a subscriber). */
export function existingListeners(client: Client, uri: string): Set<Listener> | undefined {
  return listeners.get(client)?.get(uri);
}

/** Whether the connection carries a subscription someone still listens to (it must not be dropped as idle). */
export function holdsSubscriptions(client: Client): boolean {
  for (const set of listeners.get(client)?.values() ?? []) if (set.size > 0) return true;
  return false;
}
