import { appResourceUri } from "@/lib/connectors/mcp-fields";
import type { ResourceCatalog } from "@/lib/resources/resource-catalog";
import type { ToolSet } from "@/lib/mcp/surface/surface-types";

/**
 * A stateful session's resources: frozen at initialize (seed 004 "Stateful sessions"), except
 * the MCP Apps of its tools. Tools reconcile with configuration changes, and a tool's app is
 * part of the tool (issue 25 point 1): `ui://` resources are listed and read from the newest
 * catalog, so a tool added to a live session brings its view, and the session is told by
 * resources/list_changed (`adopt` returns true). Everything else stays as it was.
 */

export interface SessionResources {
  catalog: ResourceCatalog;
  /** Takes the apps of a newer surface; true when they changed (the client is told). */
  adopt(fresh: ResourceCatalog | null, tools: ToolSet): boolean;
}

const isApp = (uri: string) => uri.startsWith("ui://");

export function sessionResources(frozen: ResourceCatalog, tools: ToolSet): SessionResources {
  let current = frozen;
  let signature = appsSignature(frozen, tools);
  const catalog: ResourceCatalog = {
    // In the upstream's order until the apps change; then the frozen resources, then the current apps.
    list: () => (current === frozen ? frozen.list() : [...frozen.list().filter((r) => !isApp(r.uri)), ...current.list().filter((r) => isApp(r.uri))]),
    templates: () => frozen.templates(),
    read: (uri) => (isApp(uri) ? current : frozen).read(uri),
    upstreamOf: (uri) => (isApp(uri) ? current : frozen).upstreamOf(uri),
    templateOwner: (uriTemplate) => frozen.templateOwner(uriTemplate),
  };
  return {
    catalog,
    adopt(fresh, freshTools) {
      // The endpoint stopped publishing resources for this caller: its apps go with them.
      current = fresh ?? EMPTY;
      const next = appsSignature(current, freshTools);
      const changed = next !== signature;
      signature = next;
      return changed;
    },
  };
}

/** The listed `ui://` resources and the apps the tools name: equal when the session's apps are. */
function appsSignature(catalog: ResourceCatalog, tools: ToolSet): string {
  const listed = catalog.list().filter((r) => isApp(r.uri));
  const named = tools.list.map((t) => appResourceUri(t._meta)).filter((u): u is string => u !== null);
  return JSON.stringify([listed, [...new Set(named)].sort()]);
}

const EMPTY: ResourceCatalog = { list: () => [], templates: () => [], read: () => null, upstreamOf: () => null, templateOwner: () => null };
