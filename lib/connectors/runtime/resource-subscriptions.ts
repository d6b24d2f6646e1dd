import type { Client, McpSubscription, ReadResourceResult } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { outsideFlights, type CallFlight } from "@/lib/connectors/runtime/call-flight";
import { sendInFlight } from "@/lib/connectors/runtime/send-in-flight";
import { describeUpstreamError } from "@/lib/connectors/describe-upstream-error";
import { logger } from "@/lib/log";
import { requestUpstream } from "@/lib/connectors/runtime/upstream-request";
import { existingListeners, type Listener, listenersOf } from "@/lib/connectors/runtime/subscription-listeners";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * resources/read and resources/subscribe of an upstream's resource, over the caller's own
 * upstream connection. A subscription is forwarded once per connection and URI (as
 * resources/subscribe to a 2025-era upstream, as a `subscriptions/listen` stream with
 * `resourceSubscriptions` to a 2026-07-28 one); every
 * downstream session subscribed through that connection hears the upstream's
 * `notifications/resources/updated` for it, and the upstream is unsubscribed when the last
 * one leaves.
 */

/**
 * 2026-07-28 upstreams have no resources/subscribe: one `subscriptions/listen` stream per URI
 * instead, opened in the background (issue 21): the subscribe is answered at once, and a
 * stream the upstream refuses, never acknowledges or breaks costs that URI's updates only.
 */
const streams = new WeakMap<Client, Map<string, Promise<McpSubscription | null>>>();

function isModern(client: Client): boolean {
  return (client.getNegotiatedProtocolVersion() ?? "") >= "2026";
}

async function subscribeUpstream(client: Client, uri: string, options: { signal?: AbortSignal; timeout: number }, headers: Record<string, string>): Promise<void> {
  if (!isModern(client)) {
    await client.subscribeResource({ uri }, options);
    return;
  }
  const byUri = streams.get(client) ?? new Map<string, Promise<McpSubscription | null>>();
  streams.set(client, byUri);
  const opening = outsideFlights(() => client.listen({ resourceSubscriptions: [uri] }, { timeout: options.timeout })).catch((e: unknown) => {
    logger.info({ uri, err: describeUpstreamError(e, headers) }, "upstream listen stream for a resource not acknowledged: its updates are not heard");
    return null;
  });
  byUri.set(uri, opening);
}

async function unsubscribeUpstream(client: Client, uri: string, options: { signal?: AbortSignal; timeout: number }): Promise<void> {
  const stream = streams.get(client)?.get(uri);
  if (stream) {
    streams.get(client)!.delete(uri);
    // Not awaited: a stream still opening must not hold the unsubscribe.
    void stream.then((s) => s?.close()).catch(() => undefined);
  } else if (!isModern(client)) await client.unsubscribeResource({ uri }, options);
}

export interface UpstreamResourceTarget {
  caller: Caller;
  view: CallerView;
  connector: SnapshotConnector;
  uri: string;
  signal?: AbortSignal;
  /** A read's timeout, from the call pipeline's limits step (subscriptions wait UPSTREAM_CALL_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * The upstream's contents, unchanged (text and blobs alike). Read in the caller's flight, as
 * prompts/get is: an upstream asking for client input while it reads reaches the caller
 * (lib/connectors/runtime/send-in-flight.ts); the answer may then be `input_required`.
 */
export function readUpstreamResource(target: UpstreamResourceTarget, flight?: CallFlight): Promise<ReadResourceResult> {
  return requestUpstream({
    ...target,
    flight,
    work: (client, options, connection) => sendInFlight(connection, flight, (extra) => client.readResource({ uri: target.uri, ...extra.params }, { ...options, ...extra.options, cacheMode: "bypass" })),
  });
}

/** The upstream subscribe in flight per (connection, URI): later subscribers wait for it, none starts another. */
const subscribing = new WeakMap<Client, Map<string, Promise<void>>>();

/**
 * Adds `listener` before anything is awaited, so concurrent subscribes to one URI neither lose
 * a listener nor open a second upstream subscription; the first one subscribes upstream.
 */
async function addListener(client: Client, uri: string, listener: Listener, options: { signal?: AbortSignal; timeout: number }, headers: Record<string, string>): Promise<void> {
  const byUri = listenersOf(client);
  const set = byUri.get(uri) ?? new Set();
  byUri.set(uri, set);
  const first = set.size === 0 && !subscribing.get(client)?.has(uri);
  set.add(listener);
  const inFlight = subscribing.get(client) ?? new Map<string, Promise<void>>();
  subscribing.set(client, inFlight);
  if (first) {
    const started = subscribeUpstream(client, uri, options, headers);
    inFlight.set(uri, started);
    void started.then(
      () => inFlight.get(uri) === started && inFlight.delete(uri),
      () => inFlight.get(uri) === started && inFlight.delete(uri),
    );
  }
  try {
    await inFlight.get(uri);
  } catch (e) {
    set.delete(listener);
    throw e;
  }
}

/** Subscribes `listener` to the URI; resolves with the function that unsubscribes it. */
export async function subscribeUpstreamResource(target: UpstreamResourceTarget, listener: Listener): Promise<() => Promise<void>> {
  let owner: Client | undefined;
  await requestUpstream({
    ...target,
    work: async (client, options, connection) => {
      owner = client;
      await addListener(client, target.uri, listener, options, connection.headers);
    },
  });
  return async () => {
    const set = owner && existingListeners(owner, target.uri);
    if (!set || !set.delete(listener) || set.size > 0) return;
    await requestUpstream({ ...target, work: (client, options) => unsubscribeUpstream(client, target.uri, options) }).catch(() => undefined);
  };
}
