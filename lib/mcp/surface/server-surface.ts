import type { Caller } from "@/lib/auth/caller";
import { callTool } from "@/lib/connectors/runtime/call-tool";
import { buildResourceCatalog, type ResourceCatalog } from "@/lib/resources/resource-catalog";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import type { CallerView } from "@/lib/mcp/visibility/snapshot-types";
import { bindToolSet, lazy, publishTools, SERVER_VERSION, type McpSurface, type PublishedTools } from "@/lib/mcp/surface/surface-types";

/**
 * /mcp/<serverId> for one caller: the tools, instructions and resources of its CallerView —
 * the one connector set every surface derives from (seed 004 "Who sees what"). Null when the
 * server does not exist for this caller.
 *
 * What a view publishes is computed once per view: views are shared by every caller of one
 * access class at one configuration version (lib/mcp/visibility/resolve-view.ts), so the tool
 * list, the composed instructions and the resource catalog (URI normalisation, duplicate
 * detection and its warning) are computed once per change, not per request.
 */
export async function serverSurface(caller: Caller, serverId: string): Promise<McpSurface | null> {
  const view = await resolveCallerView(caller, serverId);
  return view ? surfaceOfView(caller, view) : null;
}

interface PublishedServer {
  instructions: () => string;
  resources: () => ResourceCatalog;
  tools: PublishedTools;
}

const published = new WeakMap<CallerView, PublishedServer>();

function publishedOf(view: CallerView): PublishedServer {
  let found = published.get(view);
  if (!found) {
    const instructions = lazy(() => composeInstructions(view));
    found = {
      instructions,
      resources: lazy(() => buildResourceCatalog(view, instructions())),
      tools: publishTools(view.connectors.flatMap((c) => c.tools.map((tool) => ({ exposedName: tool.exposedName, tool, view })))),
    };
    published.set(view, found);
  }
  return found;
}

export function surfaceOfView(caller: Caller, view: CallerView): McpSurface {
  const parts = publishedOf(view);
  return {
    info: { name: view.snapshot.server.name, version: SERVER_VERSION },
    instructions: parts.instructions,
    resources: parts.resources,
    tools: bindToolSet(caller, parts.tools, callTool),
    watch: { orgId: view.snapshot.server.orgId, configVersion: view.snapshot.configVersion },
  };
}
