import type { Caller } from "@/lib/auth/caller";
import { callTool } from "@/lib/connectors/runtime/call-tool";
import { buildResourceCatalog } from "@/lib/resources/resource-catalog";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import type { CallerView } from "@/lib/mcp/visibility/snapshot-types";
import { connectorToolSet, lazy, SERVER_VERSION, type McpSurface } from "@/lib/mcp/surface/surface-types";

/**
 * /mcp/<serverId> for one caller: the tools, instructions and resources of its CallerView —
 * the one connector set every surface derives from (seed 004 "Who sees what"). Null when the
 * server does not exist for this caller.
 */
export async function serverSurface(caller: Caller, serverId: string): Promise<McpSurface | null> {
  const view = await resolveCallerView(caller, serverId);
  return view ? surfaceOfView(caller, view) : null;
}

export function surfaceOfView(caller: Caller, view: CallerView): McpSurface {
  const instructions = lazy(() => composeInstructions(view));
  const published = view.connectors.flatMap((c) => c.tools.map((tool) => ({ exposedName: tool.exposedName, tool, view })));
  return {
    info: { name: view.snapshot.server.name, version: SERVER_VERSION },
    instructions,
    resources: lazy(() => buildResourceCatalog(view, instructions())),
    tools: connectorToolSet(caller, published, callTool),
    watch: { orgId: view.snapshot.server.orgId, configVersion: view.snapshot.configVersion },
  };
}
