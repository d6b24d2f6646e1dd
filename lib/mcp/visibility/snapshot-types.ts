import type { Icon } from "@/lib/connectors/mcp-fields";
import type { ToolAuditDetail } from "@/lib/generated/prisma/client";
import type { CatalogPrompt, UpstreamCatalog } from "@/lib/connectors/upstream-catalog";
import type { CallerAccess } from "@/lib/mcp/visibility/load-access";

/**
 * What an MCP server is, as loaded once per configuration version: every surface of
 * /mcp/<serverId> (tools, initialize instructions, resources, knowledge graph) is computed
 * from a ServerSnapshot filtered through a CallerView. Secrets are not part of it.
 */

export interface SnapshotTool {
  connectorId: string;
  /** The tool's own name at its connector (what the upstream knows; what role whitelists name). */
  name: string;
  /** The name MCP clients see: unique per server, at most 64 characters. */
  exposedName: string;
  /** A short name for people (MCP tool `title`); null: none. */
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  /** How an http tool executes; null for mcp tools. */
  request: { method: string; path: string } | null;
  /**
   * The name this server publishes the tool under before the clash rule: the server's
   * override (issue 26) or the tool's own name.
   */
  curatedName: string;
  /** MCP annotations as served (an http tool's default from its method when none is stored); null: none. */
  annotations: Record<string, unknown> | null;
  /** The JSON Schema its structuredContent follows (http tools check every answer against it); null: none. */
  outputSchema: Record<string, unknown> | null;
  /** http tools: the JMESPath expression applied to the JSON answer; null: as received. */
  select: string | null;
  /** The other MCP fields as kept (lib/mcp/surface/tool-definition.ts serves them); null: none. */
  icons: Icon[] | null;
  execution: Record<string, unknown> | null;
  /** The tool's `_meta` (an MCP App's `ui.resourceUri` among it). */
  meta: Record<string, unknown> | null;
}

/** A prompt of an `mcp` connector's upstream, named like tools (unique per server, prefixed on a clash). */
export interface SnapshotPrompt extends CatalogPrompt {
  connectorId: string;
  /** The name MCP clients see. `name` is the upstream's (what role whitelists name). */
  exposedName: string;
}

export interface SnapshotStoredResource {
  id: string;
  uri: string;
  name: string;
  description: string | null;
  mimeType: string | null;
  fetchConfig: unknown;
}

export interface SnapshotGraph {
  entities: Array<{ key: string; label: string; description: string | null }>;
  relations: Array<{ fromKey: string; toKey: string; kind: string; description: string | null }>;
}

export interface SnapshotConnector {
  id: string;
  orgId: string;
  slug: string;
  name: string;
  type: "http" | "mcp";
  instructions: string | null;
  /** Non-secret settings: `baseUrl` (http) or `url` (mcp). */
  config: { baseUrl?: string; url?: string };
  tools: SnapshotTool[];
  /** The upstream's prompts (mcp connectors; empty for http ones). */
  prompts: SnapshotPrompt[];
  /** The upstream's resources, templates and what it takes (mcp connectors; empty for http ones). */
  upstream: Omit<UpstreamCatalog, "prompts" | "instructions">;
  storedResources: SnapshotStoredResource[];
  /** The manual layer of the knowledge graph. */
  graph: SnapshotGraph;
  /** An OAuth `per_user` mcp connector: its catalog is each caller's own (lib/mcp/visibility/personal-catalog.ts). */
  perUser?: boolean;
}

export interface SnapshotSkill {
  id: string;
  name: string;
  content: string;
  connectorId: string | null;
}

export interface ServerSnapshot {
  /** The org's config version this snapshot was built from. */
  configVersion: number;
  /** The org's settings the runtime needs: what its tool.call audit events keep. */
  org: { toolAuditDetail: ToolAuditDetail };
  server: { id: string; orgId: string; workspaceId: string; name: string; instructions: string | null };
  workspace: { id: string; knowledgeGraphEnabled: boolean; toolWhitelistsEnabled: boolean };
  /** Assigned connectors, in assignment order. */
  connectors: SnapshotConnector[];
  /**
   * Tool names (the connectors' own, before curation and roles) that more than one assigned
   * connector has: such a name never reaches a tool by itself (lib/mcp/surface/surface-types.ts,
   * `ownNames`), whoever the caller and whatever they may see.
   */
  sharedToolNames: ReadonlySet<string>;
  /** Applied skills of the workspace, oldest first. */
  skills: SnapshotSkill[];
}

/** The part of a snapshot one caller may use: connectors with at least one allowed tool or prompt. */
export interface CallerView {
  snapshot: ServerSnapshot;
  /** Visible connectors, in assignment order, each with only its allowed tools and prompts. */
  connectors: SnapshotConnector[];
  /** Every allowed tool, by exposed name. */
  toolsByExposedName: Map<string, SnapshotTool>;
  /** What the caller's class may use (prompts of a per_user catalog are filtered by it too). */
  access?: CallerAccess;
}
