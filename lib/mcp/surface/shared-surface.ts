import type { Caller } from "@/lib/auth/caller";
import { callTool } from "@/lib/connectors/pipeline/call-tool";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { resolveWorkspaceViews } from "@/lib/mcp/visibility/resolve-view";
import type { VersionsSeen } from "@/lib/config-version/read-current-version";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { bindToolSet, lazy, NO_UPSTREAM_RESOURCES, publishTools, SERVER_VERSION, type McpSurface, type PublishedTool, type PublishedTools } from "@/lib/mcp/surface/surface-types";
import { bindPromptSet, completeThrough, publishPrompts, type PublishedPrompts } from "@/lib/mcp/surface/publish-prompts";
import { exposedToolNames } from "@/lib/mcp/surface/tool-names";

/**
 * The shared endpoint /mcp: every tool and prompt the caller may use across the MCP servers of its API
 * key's workspace (only the pinned server for a pinned key), each connector once. It needs a
 * user API key — the instance credential belongs to no workspace — and publishes no
 * resources (seed 004). Null when there is nothing this caller can be served.
 */
export async function sharedSurface(caller: Caller, seen?: VersionsSeen): Promise<McpSurface | null> {
  const key = caller.kind === "user" ? caller.apiKey : null;
  const views = await resolveWorkspaceViews(caller, seen);
  if (!key || !views) return null;
  const parts = publishedOf(views.value);
  return {
    info: { name: "Switchboard", version: SERVER_VERSION },
    instructions: parts.instructions,
    resources: () => null,
    tools: bindToolSet(caller, parts.tools, callTool),
    prompts: bindPromptSet(caller, parts.prompts),
    // No resources here, so no templates: completions are of prompts only.
    complete: (ref, params, signal) => {
      const found = ref.type === "ref/prompt" ? parts.prompts.byName.get(ref.name) : undefined;
      const connector = found && found.view.connectors.find((c) => c.id === found.prompt.connectorId);
      return completeThrough(caller, connector ? { connector, view: found.view, upstreamRef: { type: "ref/prompt", name: found.prompt.name } } : null, params, signal);
    },
    completions: parts.completions,
    upstreamResources: NO_UPSTREAM_RESOURCES,
    watch: { orgId: key.orgId, configVersion: views.version },
  };
}

interface PublishedShared {
  instructions: () => string;
  tools: PublishedTools;
  prompts: PublishedPrompts;
  completions: boolean;
}

/** What one cached list of views publishes, computed once (the list is shared while its version is current). */
const published = new WeakMap<CallerView[], PublishedShared>();

function publishedOf(views: CallerView[]): PublishedShared {
  let found = published.get(views);
  if (!found) {
    const { connectors, tools, prompts } = mergeViews(views);
    found = {
      instructions: lazy(() => sharedInstructions(views, connectors)),
      // No resources here: a tool's app would point at nothing (docs/mcp-gateway.md).
      tools: publishTools(tools, { apps: false }),
      prompts,
      completions: connectors.some((c) => c.upstream.completions && c.prompts.length > 0),
    };
    published.set(views, found);
  }
  return found;
}

/** Each connector once (first server that assigns it), with names unique across the union. */
function mergeViews(views: CallerView[]): { connectors: SnapshotConnector[]; tools: PublishedTool[]; prompts: PublishedPrompts } {
  const seen = new Map<string, { connector: SnapshotConnector; view: CallerView }>();
  for (const view of views) for (const c of view.connectors) if (!seen.has(c.id)) seen.set(c.id, { connector: c, view });
  const entries = [...seen.values()];
  const flat = entries.flatMap(({ connector, view }) => connector.tools.map((tool) => ({ connector, tool, view })));
  // Each server's curated names (its overrides), settled across servers by the clash rule.
  const names = exposedToolNames(flat.map((f) => ({ connectorSlug: f.connector.slug, name: f.tool.curatedName })));
  // Prompts are named across the union exactly like tools (a clash is prefixed with the slug).
  const prompts = entries.flatMap(({ connector, view }) => connector.prompts.map((prompt) => ({ connector, prompt, view })));
  const promptNames = exposedToolNames(prompts.map((p) => ({ connectorSlug: p.connector.slug, name: p.prompt.name })));
  const exposed = new Map(prompts.map((p, i) => [p.prompt, promptNames[i]]));
  return {
    connectors: entries.map((e) => e.connector),
    tools: flat.map((f, i) => ({ exposedName: names[i], tool: f.tool, view: f.view })),
    prompts: publishPrompts(prompts, (p) => exposed.get(p.prompt)!),
  };
}

/**
 * The per-server composition (lib/mcp/visibility/filter-view.ts) applied to the union: each server's own
 * instructions under its name, then each usable connector's, then the workspace's applied
 * skills (connector-scoped ones only for usable connectors).
 */
function sharedInstructions(views: CallerView[], connectors: SnapshotConnector[]): string {
  if (views.length === 0) return "";
  const own = views
    .map((v) => v.snapshot.server)
    .filter((s) => s.instructions?.trim())
    .map((s) => `# ${s.name}\n\n${s.instructions!.trim()}`)
    .join("\n\n");
  const first = views[0].snapshot;
  const union: CallerView = {
    snapshot: { ...first, server: { ...first.server, instructions: own || null }, connectors },
    connectors,
    toolsByExposedName: new Map(),
  };
  return composeInstructions(union);
}
