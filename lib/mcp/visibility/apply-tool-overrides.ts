import type { SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { exposedToolNames } from "@/lib/mcp/surface/tool-names";

/**
 * A server's curation of its tools (issue 26), applied after the connector's tools were
 * turned into the definitions they are served as: an override wins field by field (name,
 * title, description; annotations as a whole), and a hidden tool is dropped here, before any
 * caller's filter, so it is neither listed nor callable and counts as not surviving the
 * filters of seed 004 (a connector whose tools are all hidden contributes nothing).
 */

export interface ToolOverrideRow {
  connectorId: string;
  /** The connector's own tool name. */
  tool: string;
  name: string | null;
  title: string | null;
  description: string | null;
  annotations: unknown;
  hidden: boolean;
}

function overrideKey(connectorId: string, tool: string): string {
  return `${connectorId}\u0000${tool}`;
}

export function applyToolOverrides(connectors: SnapshotConnector[], overrides: ToolOverrideRow[]): SnapshotConnector[] {
  if (overrides.length === 0) return connectors;
  const byTool = new Map(overrides.map((o) => [overrideKey(o.connectorId, o.tool), o]));
  return connectors.map((c) => ({
    ...c,
    tools: c.tools.flatMap((tool) => {
      const o = byTool.get(overrideKey(c.id, tool.name));
      if (!o) return [tool];
      if (o.hidden) return [];
      return [curated(tool, o)];
    }),
  }));
}

function curated(tool: SnapshotTool, o: ToolOverrideRow): SnapshotTool {
  return {
    ...tool,
    curatedName: o.name ?? tool.curatedName,
    title: o.title ?? tool.title,
    description: o.description ?? tool.description,
    annotations: o.annotations && typeof o.annotations === "object" ? (o.annotations as Record<string, unknown>) : tool.annotations,
  };
}

/**
 * Gives every tool of the server its exposed name: its curated name, or on a clash between
 * connectors the existing clash rule's prefixed one (lib/mcp/surface/tool-names.ts).
 */
export function nameTools(connectors: SnapshotConnector[]): SnapshotConnector[] {
  const names = exposedToolNames(connectors.flatMap((c) => c.tools.map((t) => ({ connectorSlug: c.slug, name: t.curatedName }))));
  let i = 0;
  return connectors.map((c) => ({ ...c, tools: c.tools.map((t) => ({ ...t, exposedName: names[i++] })) }));
}
