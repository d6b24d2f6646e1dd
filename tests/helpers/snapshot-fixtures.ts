import { whitelistKey, type CallerAccess } from "@/lib/mcp/visibility/load-access";
import { visibleConnectors } from "@/lib/mcp/visibility/filter-view";
import type { CallerView, ServerSnapshot, SnapshotConnector, SnapshotStoredResource, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Hand-built server snapshots for unit tests of everything computed from a CallerView. The
 * view itself comes from the real visibleConnectors, so the tests exercise the same filter
 * as the endpoint.
 */

/** A tool; `params` become the properties of its input schema. Exposed as `<connector>_<name>`. */
export function tool(connectorId: string, name: string, params: string[] = []): SnapshotTool {
  return {
    connectorId,
    name,
    exposedName: `${connectorId}_${name}`,
    title: null,
    description: "",
    inputSchema: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])) },
    request: null,
    curatedName: name,
    outputSchema: null,
    annotations: null,
    select: null,
    icons: null,
    execution: null,
    meta: null,
  };
}

let rowCounter = 0;

/** A stored resource row. */
export function stored(uri: string, fields: Partial<SnapshotStoredResource> = {}): SnapshotStoredResource {
  return { id: `r${++rowCounter}`, uri, name: uri, description: null, mimeType: null, fetchConfig: { text: `text of ${uri}` }, ...fields };
}

/** A connector; `tools` are names or [name, params] pairs. */
export function connector(
  id: string,
  opts: {
    name?: string;
    instructions?: string | null;
    tools?: Array<string | [string, string[]]>;
    storedResources?: SnapshotStoredResource[];
    graph?: Partial<SnapshotConnector["graph"]>;
  } = {},
): SnapshotConnector {
  return {
    id,
    orgId: "org1",
    slug: id,
    name: opts.name ?? id.toUpperCase(),
    type: "http",
    instructions: opts.instructions ?? null,
    config: { baseUrl: "https://api.example.com" },
    tools: (opts.tools ?? ["ping"]).map((t) => (typeof t === "string" ? tool(id, t) : tool(id, t[0], t[1]))),
    prompts: [],
    upstream: { resources: [], resourceTemplates: [], subscribe: false, completions: false },
    storedResources: opts.storedResources ?? [],
    graph: { entities: opts.graph?.entities ?? [], relations: opts.graph?.relations ?? [] },
  };
}

export function snapshot(
  connectors: SnapshotConnector[],
  opts: { serverId?: string; instructions?: string | null; knowledgeGraphEnabled?: boolean; skills?: ServerSnapshot["skills"] } = {},
): ServerSnapshot {
  const serverId = opts.serverId ?? "srv1";
  return {
    configVersion: 1,
    org: { toolAuditDetail: "metadata" },
    server: { id: serverId, orgId: "org1", workspaceId: "ws1", name: "Support", instructions: opts.instructions ?? null },
    workspace: { id: "ws1", knowledgeGraphEnabled: opts.knowledgeGraphEnabled ?? false, toolWhitelistsEnabled: false },
    connectors,
    sharedToolNames: new Set(),
    skills: opts.skills ?? [],
  };
}

/** The view of a caller the roles do not restrict. */
export function unrestrictedView(snap: ServerSnapshot): CallerView {
  return visibleConnectors(snap, { kind: "all" });
}

/** The view of a caller whose role allows exactly these (connectorId, toolName) pairs. */
export function roleView(snap: ServerSnapshot, allowed: Array<[string, string]>): CallerView {
  const access: CallerAccess = { kind: "whitelist", allowed: new Set(allowed.map(([c, t]) => whitelistKey(c, t))), prompts: new Set() };
  return visibleConnectors(snap, access);
}
