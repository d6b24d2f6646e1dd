import type { Caller } from "@/lib/auth/caller";
import { errorText, logger } from "@/lib/log";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * A stateful session keeps the catalog it was initialized with (resources, templates) and
 * adopts newer prompts only when its sweep runs; what it routes to an upstream must still be
 * the caller's now. So every request that leaves for an upstream — resources/read,
 * resources/subscribe, prompts/get, completion/complete — asks again which view the caller
 * has of the server at the current configuration version (a cached read while nothing
 * changed): a connector removed from the server, or one the caller's role no longer grants,
 * is not found on the next request, exactly like one that never existed.
 */

export interface CurrentAccess {
  view: CallerView;
  connector: SnapshotConnector;
}

/** The caller's current view of `view`'s server and the connector in it; null when the caller no longer sees it. */
export async function currentAccess(caller: Caller, view: CallerView, connectorId: string): Promise<CurrentAccess | null> {
  const now = await resolveCallerView(caller, view.snapshot.server.id);
  const connector = now?.connectors.find((c) => c.id === connectorId);
  return now && connector ? { view: now, connector } : null;
}

/**
 * Which of `connectors` the caller still reaches, for the recheck of open subscriptions after a
 * configuration change. Fails closed: when reading access fails (the database is away), the
 * subscription is dropped as if access were lost — an update the caller may no longer see must
 * not go out on a guess; the client may subscribe again, and is then checked afresh.
 */
export async function connectorsStillReached(connectors: SnapshotConnector[], reaches: (connector: SnapshotConnector) => Promise<boolean>): Promise<Map<string, boolean>> {
  const answers = await Promise.all(
    connectors.map(async (connector) => {
      try {
        // Once more before dropping: one slow read under load should not end every subscription.
        return [connector.id, await reaches(connector).catch(() => reaches(connector))] as const;
      } catch (error) {
        logger.warn({ err: errorText(error), connectorId: connector.id }, "could not read a subscriber's access: its upstream resource subscriptions are dropped");
        return [connector.id, false] as const;
      }
    }),
  );
  return new Map(answers);
}
