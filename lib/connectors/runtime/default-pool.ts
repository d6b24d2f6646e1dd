import { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { handleHostResourcesList, handleHostResourcesRead } from "@/lib/host-resources";
import { rediscoverSoon } from "@/lib/connectors/rediscover-connector";
import { processState } from "@/lib/process-state";

/**
 * The process-wide pool of outbound MCP connections, serving the host-resources extension
 * with the files workspace's handlers, re-discovering a connector whose upstream says its
 * lists changed. Kept on globalThis so Next.js module reloads and
 * several route bundles share one pool.
 */
const globalForPool = processState<{ switchboardUpstreamPool?: UpstreamPool }>();

export function upstreamPool(): UpstreamPool {
  return (globalForPool.switchboardUpstreamPool ??= new UpstreamPool({
    hostResources: { read: handleHostResourcesRead, list: handleHostResourcesList },
    onListChanged: (owner) => rediscoverSoon(owner.connectorId),
  }));
}
