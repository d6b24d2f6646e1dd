import type { Caller } from "@/lib/auth/caller";
import { loadCallerAccess } from "@/lib/mcp/visibility/load-access";
import { visibleConnectors } from "@/lib/mcp/visibility/filter-view";
import { findServerHead, loadServerSnapshot } from "@/lib/mcp/visibility/load-snapshot";
import type { CallerView } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Everything /mcp/<serverId> needs to answer one caller, or null when the server does not
 * exist for that caller (missing, another org's, another workspace's key, a key pinned to
 * another server): the endpoint answers both the same way.
 */
export async function resolveCallerView(caller: Caller, serverId: string): Promise<CallerView | null> {
  const head = await findServerHead(caller, serverId);
  if (!head) return null;
  const access = await loadCallerAccess(caller, head);
  if (!access) return null;
  const snapshot = await loadServerSnapshot(head);
  return visibleConnectors(snapshot, access);
}
