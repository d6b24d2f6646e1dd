import type { Caller } from "@/lib/auth/caller";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { readConnectorResource } from "@/lib/connectors/pipeline/read-resource";
import { buildResourceCatalog, type ResourceCatalog } from "@/lib/resources/resource-catalog";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import type { VersionsSeen } from "@/lib/config-version/read-current-version";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { currentAccess, type CurrentAccess } from "@/lib/mcp/surface/recheck-access";
import { ResourceNotFoundError } from "@modelcontextprotocol/client";
import { bindToolSet, lazy, publishTools, SERVER_VERSION, type McpSurface, type PublishedTools, type UpstreamResources } from "@/lib/mcp/surface/surface-types";
import { subscribeUpstreamResource } from "@/lib/connectors/runtime/resource-subscriptions";
import { linkedByOwner } from "@/lib/connectors/runtime/linked-resources";
import { upstreamOwner } from "@/lib/connectors/runtime/upstream-request";
import { isReservedUri } from "@/lib/resources/stored-resource-rules";
import { bindPromptSet, completeThrough, publishPrompts, type CompletionRef, type PublishedPrompts } from "@/lib/mcp/surface/publish-prompts";

/**
 * /mcp/<serverId> for one caller: the tools, prompts, instructions and resources (stored and
 * the upstreams') of its CallerView —
 * the one connector set every surface derives from (seed 004 "Who sees what"). Null when the
 * server does not exist for this caller.
 *
 * What a view publishes is computed once per view: views are shared by every caller of one
 * access class at one configuration version (lib/mcp/visibility/resolve-view.ts), so the tool
 * list, the composed instructions and the resource catalog (URI normalisation, duplicate
 * detection and its warning) are computed once per change, not per request.
 */
export async function serverSurface(caller: Caller, serverId: string, seen?: VersionsSeen): Promise<McpSurface | null> {
  const view = await resolveCallerView(caller, serverId, seen);
  return view ? surfaceOfView(caller, view) : null;
}

interface PublishedServer {
  instructions: () => string;
  resources: () => ResourceCatalog;
  tools: PublishedTools;
  prompts: PublishedPrompts;
  /** Whether any visible connector's upstream completes prompts or templates. */
  completions: boolean;
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
      prompts: publishPrompts(view.connectors.flatMap((c) => c.prompts.map((prompt) => ({ prompt, view })))),
      completions: view.connectors.some((c) => c.upstream.completions && (c.prompts.length > 0 || c.upstream.resourceTemplates.length > 0)),
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
    prompts: bindPromptSet(caller, parts.prompts),
    complete: (ref, params, signal) => completeThrough(caller, completionOwner(view, parts, ref), params, signal),
    completions: parts.completions,
    upstreamResources: bindUpstreamResources(caller, view),
    watch: { orgId: view.snapshot.server.orgId, configVersion: view.snapshot.configVersion },
  };
}

/** The connector a completion reference belongs to, with the reference in the upstream's own terms. */
function completionOwner(view: CallerView, parts: PublishedServer, ref: CompletionRef) {
  if (ref.type === "ref/prompt") {
    const found = parts.prompts.byName.get(ref.name);
    const connector = found && view.connectors.find((c) => c.id === found.prompt.connectorId);
    return connector ? { connector, view, upstreamRef: { type: "ref/prompt" as const, name: found.prompt.name } } : null;
  }
  const owner = parts.resources().templateOwner(ref.uri);
  return owner ? { connector: owner, view, upstreamRef: ref } : null;
}

function bindUpstreamResources(caller: Caller, view: CallerView): UpstreamResources {
  return {
    subscribe: view.connectors.some((c) => c.upstream.subscribe && (c.upstream.resources.length > 0 || c.upstream.resourceTemplates.length > 0)),
    read: (connector, uri, signal, flight) => readConnectorResource({ caller, view, connector, uri, signal, flight }),
    subscribeTo: async (connector, uri, onUpdated) => subscribeUpstreamResource({ caller, ...(await accessTo(caller, view, connector, uri)), uri }, onUpdated),
    reaches: async (connector) => (await currentAccess(caller, view, connector.id)) !== null,
    linkedFrom: (uri) => {
      // The platform's reserved scheme is never an upstream's; a URI two connectors linked is neither's.
      if (isReservedUri(uri)) return null;
      const linking = view.connectors.filter((c) => c.type === "mcp" && linkedByOwner(upstreamOwner(caller, view, c), uri));
      return linking.length === 1 ? linking[0] : null;
    },
  };
}

/** The connector as the caller may reach it now; not found when it may not (a session's catalog is older). */
async function accessTo(caller: Caller, view: CallerView, connector: SnapshotConnector, uri: string): Promise<CurrentAccess> {
  const now = await currentAccess(caller, view, connector.id);
  if (!now) throw new ResourceNotFoundError(uri);
  return now;
}
