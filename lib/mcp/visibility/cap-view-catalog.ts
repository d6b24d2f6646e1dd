import { setting } from "@/lib/config/settings";
import { logger } from "@/lib/log";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Each connector's upstream catalog is capped at discovery (lib/connectors/upstream-catalog.ts);
 * a server assigning many connectors could still publish their sum to every caller and hold it
 * in every session. So a view publishes at most UPSTREAM_CATALOG_MAX_PER_SERVER upstream
 * prompts, resource templates and resources in all: connectors in assignment order, each one's
 * prompts, then templates, then resources — the same view always keeps the same entries — and
 * the rest is dropped with one log line per view built. The connectors themselves and their
 * tools stay.
 */
export function capViewCatalog(connectors: SnapshotConnector[], serverId: string): SnapshotConnector[] {
  const cap = setting("UPSTREAM_CATALOG_MAX_PER_SERVER");
  let left = cap;
  let dropped = 0;
  const take = <T>(items: T[]): T[] => {
    const kept = items.length <= left ? items : items.slice(0, left);
    left -= kept.length;
    dropped += items.length - kept.length;
    return kept;
  };
  const capped = connectors.map((c) => {
    const prompts = take(c.prompts);
    const resourceTemplates = take(c.upstream.resourceTemplates);
    const resources = take(c.upstream.resources);
    const same = prompts === c.prompts && resourceTemplates === c.upstream.resourceTemplates && resources === c.upstream.resources;
    return same ? c : { ...c, prompts, upstream: { ...c.upstream, resourceTemplates, resources } };
  });
  if (dropped > 0) logger.warn({ serverId, cap, dropped }, `upstream catalog of the server capped at UPSTREAM_CATALOG_MAX_PER_SERVER=${cap}: ${dropped} prompts, templates or resources are not published`);
  return capped;
}
