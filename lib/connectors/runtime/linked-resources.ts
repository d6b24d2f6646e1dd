import { LRUCache } from "lru-cache";
import type { ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import { processState } from "@/lib/process-state";
import { normalizeResourceUri } from "@/lib/resources/uri-normalization";

/**
 * The resource links an upstream's tool returned, so the caller can read them. A tool may answer
 * with a `resource_link` to a resource its server does not list (MCP 2025-06-18 "Resource Links":
 * not guaranteed to appear in resources/list) — server-everything's `gzip-file-as-resource`
 * registers one on the calling session. Such a URI is in no catalog, so without this the
 * gateway would answer resources/read "not found" for a link it has just handed out.
 *
 * Kept per connection owner (workspace, user, connector: the owner of the pooled upstream
 * connection that made the link, lib/connectors/runtime/upstream-pool.ts), so a link is read
 * back through the same upstream connection, by the callers who share it, and by no one else.
 * In this process's memory only: the upstream connection it lives on is this process's too.
 */

/** Links remembered at once, across every owner; the least recently used are forgotten first. */
const MAX_LINKS = 10_000;
/** How long a link stays readable after the call that returned it (a session resource outlives few calls). */
const LINK_TTL_MS = 60 * 60 * 1000;

const holder = processState<{ switchboardResourceLinks?: LRUCache<string, true> }>();
const links = () => (holder.switchboardResourceLinks ??= new LRUCache({ max: MAX_LINKS, ttl: LINK_TTL_MS }));

const keyOf = (owner: UpstreamOwner, uri: string) => `${owner.orgId}|${owner.workspaceId}|${owner.userId ?? ""}|${owner.connectorId}|${normalizeResourceUri(uri)}`;

/** Remembers the `resource_link` URIs of `result`, an upstream tool's answer to `owner`. */
export function rememberResourceLinks(owner: UpstreamOwner, result: ToolCallResult): void {
  // An input_required result passed through to a 2026-07-28 caller has no content (mcp-tool.ts).
  for (const item of result.content ?? []) if (item.type === "resource_link" && item.uri) links().set(keyOf(owner, item.uri), true);
}

/** Whether a tool of `owner`'s connector returned a link to `uri` (and it is not forgotten yet). */
export function linkedByOwner(owner: UpstreamOwner, uri: string): boolean {
  return links().has(keyOf(owner, uri));
}
