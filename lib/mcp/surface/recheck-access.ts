import type { Caller } from "@/lib/auth/caller";
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
