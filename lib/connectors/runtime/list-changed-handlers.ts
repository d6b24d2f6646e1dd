import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { describeUpstreamError } from "@/lib/connectors/describe-upstream-error";
import { logger } from "@/lib/log";

/**
 * A pooled upstream connection hearing its upstream's list_changed notifications (issue 21:
 * "no upstream request ever waits on a listen stream"). The connector is re-discovered on
 * them (lib/connectors/rediscover-connector.ts), nothing is auto-refreshed here.
 *
 * On a 2025-era connection they arrive unsolicited (the session's GET stream). On a
 * 2026-07-28 one they ride a `subscriptions/listen` stream, which this opens *after* connect
 * and never awaits: the SDK's own `listChanged` option awaits the stream's acknowledgement
 * inside `connect`, so an upstream whose listen stream is slow, silent or unreadable (the
 * conformance suite's reference server answers it as chunked `application/json`, held open,
 * which the SDK transport reads to its end that never comes) held every call for the whole
 * connect timeout. Here such a stream costs its notifications only. What changed before the
 * stream was acknowledged (a call sent meanwhile may itself change a list) is caught by one
 * re-discovery at the acknowledgement (`sentMeanwhile`), and after a re-listen.
 */

const METHODS = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
} as const;
const FILTER = { tools: "toolsListChanged", prompts: "promptsListChanged", resources: "resourcesListChanged" } as const;
type List = keyof typeof METHODS;

/** Re-listens after a stream that was open ends, at most this often and this many times in a row. */
const REOPEN_DELAYS_MS = [1_000, 5_000, 30_000];

/**
 * Routes the advertised lists' list_changed to `changed`; on a 2026-07-28 connection opens
 * the listen stream in the background. Returns the function that stops listening.
 */
export interface WatchOptions {
  ackTimeoutMs: number;
  connection: string;
  headers: Record<string, string>;
  /** Whether a request went out on the connection since it opened. */
  sentMeanwhile: () => boolean;
}

export function watchListChanges(client: Client, changed: () => void, { ackTimeoutMs, connection, headers, sentMeanwhile }: WatchOptions): () => void {
  const advertised = client.getServerCapabilities() ?? {};
  const lists = (Object.keys(METHODS) as List[]).filter((list) => (advertised[list] as { listChanged?: boolean } | undefined)?.listChanged);
  for (const list of lists) client.setNotificationHandler(METHODS[list], () => changed());
  const modern = (client.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28";
  if (!modern || lists.length === 0) return () => undefined;

  const filter = Object.fromEntries(lists.map((list) => [FILTER[list], true]));
  let stopped = false;
  let current: McpSubscription | undefined;
  let timer: NodeJS.Timeout | undefined;
  let reopened = 0;
  const open = () => {
    if (stopped || !client.transport) return;
    client.listen(filter, { timeout: ackTimeoutMs }).then(
      (subscription) => {
        if (stopped) return void subscription.close().catch(() => undefined);
        current = subscription;
        // Unheard until now: a change made meanwhile is found by re-discovery.
        if (reopened > 0 || sentMeanwhile()) changed();
        const openedAt = Date.now();
        void subscription.closed.then((cause) => {
          current = undefined;
          if (stopped || cause === "local") return;
          // A stream that stayed up a while starts the count again: only a flapping one gives up.
          if (Date.now() - openedAt > 60_000) reopened = 0;
          const delay = REOPEN_DELAYS_MS[reopened++];
          if (delay === undefined) return void logger.info({ connection }, "upstream listen stream keeps ending: list changes of this connection are no longer heard");
          timer = setTimeout(open, delay);
          timer.unref();
        });
      },
      // Refused, unreadable or never acknowledged: the lists' changes go unheard, calls go on.
      (e: unknown) => void logger.info({ connection, err: describeUpstreamError(e, headers) }, "upstream listen stream not acknowledged: list changes of this connection are not heard"),
    );
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    void current?.close().catch(() => undefined);
  };
}
