import { logger } from "@/lib/log";
import { MAX_SUBSCRIPTIONS } from "@/lib/mcp/serve/protocol/build-server";
import { connectorsStillReached } from "@/lib/mcp/surface/recheck-access";
import type { McpSurface } from "@/lib/mcp/surface/surface-types";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * A 2026-07-28 client subscribes to resources on its `subscriptions/listen` stream
 * (`resourceSubscriptions`; resources/subscribe is no method of that revision). For an
 * upstream's resource the gateway holds the upstream subscription while such a stream is open
 * — once per URI for all the streams of one handler (one endpoint and credential), released
 * with the last of them — and publishes the upstream's `notifications/resources/updated` on
 * the handler's bus, whose listen router sends it to the streams that asked for that URI.
 * The platform's own and stored resources change only with the configuration: never updated.
 */

export interface ListenHolds {
  /** Holds the upstream subscriptions `uris` need; returns their release (idempotent). */
  hold(surface: McpSurface, uris: string[]): () => void;
  /**
   * After a configuration change: drops the held subscriptions whose connector the caller no
   * longer reaches (`surface` is the caller's current one). Their updates stop reaching the
   * streams, and the upstream is unsubscribed; a later stream asking for the URI tries anew.
   */
  recheck(surface: McpSurface): Promise<void>;
  /** Whether any upstream subscription is held (nothing to recheck otherwise). */
  holding(): boolean;
}

interface Held {
  count: number;
  /** The upstream refused it: not held, though its holders still count on this entry. */
  dead: boolean;
  /** Dropped by a recheck: the caller lost its connector, so its updates are no longer published. */
  lost: boolean;
  connector: SnapshotConnector;
  unsubscribe: Promise<() => Promise<void>>;
}

export function listenHolds(publishUpdated: (uri: string) => void): ListenHolds {
  const held = new Map<string, Held>();
  // A hold releases only the entry it counted on: after a refusal, the URI's entry may be a
  // newer stream's, which an older holder must not unsubscribe.
  const release = (uri: string, entry: Held) => {
    if (held.get(uri) !== entry || --entry.count > 0) return;
    held.delete(uri);
    void entry.unsubscribe.then((unsubscribe) => unsubscribe()).catch(() => undefined);
  };
  const take = (surface: McpSurface, uri: string, upstream: { connector: SnapshotConnector; uri: string }): Held | undefined => {
    const entry = held.get(uri);
    if (entry && !entry.dead) {
      entry.count++;
      return entry;
    }
    // One credential may open any number of streams: the cap is on the URIs all of them hold.
    if (!entry && held.size >= MAX_SUBSCRIPTIONS) return undefined;
    const created: Held = { count: 1, dead: false, lost: false, connector: upstream.connector, unsubscribe: Promise.resolve(async () => undefined) };
    created.unsubscribe = surface.upstreamResources.subscribeTo(upstream.connector, upstream.uri, () => {
      if (!created.lost) publishUpdated(uri);
    });
    // A refused upstream subscription is not held: the next stream asking for it tries again.
    created.unsubscribe.catch(() => void (created.dead = true));
    held.set(uri, created);
    return created;
  };
  const recheck = async (surface: McpSurface) => {
    const entries = [...held].filter(([, entry]) => !entry.dead);
    const connectors = new Map(entries.map(([, entry]) => [entry.connector.id, entry.connector]));
    const reached = await connectorsStillReached([...connectors.values()], (c) => surface.upstreamResources.reaches(c));
    for (const [uri, entry] of entries) {
      if (reached.get(entry.connector.id) || held.get(uri) !== entry) continue;
      // Its holders' releases find another entry (or none) under the URI: none unsubscribes again.
      entry.lost = true;
      held.delete(uri);
      void entry.unsubscribe.then((unsubscribe) => unsubscribe()).catch(() => undefined);
    }
  };
  return {
    recheck,
    holding: () => held.size > 0,
    hold(surface, uris) {
      const catalog = surface.resources();
      if (!catalog || !surface.upstreamResources.subscribe) return () => undefined;
      // Bounded per handler (one endpoint and credential), as a 2025-era session's subscriptions are.
      const taken: Array<readonly [string, Held]> = [];
      const notHeld: string[] = [];
      for (const uri of new Set(uris)) {
        const upstream = catalog.upstreamOf(uri);
        if (!upstream) continue;
        const entry = take(surface, uri, upstream);
        if (entry) taken.push([uri, entry]);
        else notHeld.push(uri);
      }
      if (notHeld.length > 0) logger.warn({ max: MAX_SUBSCRIPTIONS, notHeld: notHeld.length }, "listen streams of one credential already hold the most upstream resource subscriptions; the extra URIs are not subscribed upstream");
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const [uri, entry] of taken) release(uri, entry);
      };
    },
  };
}

/** The resource URIs a `subscriptions/listen` request asks to hear about; none for any other message. */
export function listenedResources(message: unknown): string[] {
  const m = message as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (!m || m.method !== "subscriptions/listen") return [];
  const uris = m.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === "string") : [];
}

/**
 * `response` (a listen stream) with what `hold` holds released once it ends: closed by the
 * server, or cancelled by its client. A refused listen (a JSON-RPC error) holds nothing.
 */
export function releasedWhenClosed(response: Response, hold: () => () => void): Response {
  if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const release = hold();
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        release();
        controller.close();
      } catch (e) {
        release();
        controller.error(e);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
