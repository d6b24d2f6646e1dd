import type { Icon } from "@/lib/connectors/mcp-fields";
import type { SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { withoutAppView } from "@/lib/connectors/mcp-fields";

/**
 * A stored tool as MCP clients get it in tools/list (issue 25 point 1): every field kept at
 * discovery (or set by an admin, for http tools), as it came, under its exposed name — the
 * one difference a client may see from the upstream's own list. Both eras publish every
 * field: clients of older revisions ignore the ones they do not know.
 */

/** A tool as tools/list returns it. */
export interface WireTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: Icon[];
  execution?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export function toolDefinition(tool: SnapshotTool, exposedName: string): WireTool {
  return {
    name: exposedName,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons } : {}),
    ...(tool.execution ? { execution: tool.execution } : {}),
    ...(tool.meta ? { _meta: tool.meta } : {}),
  };
}

/**
 * The definition on an endpoint that publishes no resources (the shared /mcp): a tool's MCP
 * App view (`_meta.ui`) is left out rather than pointing at a `ui://` resource no read there
 * can return; the rest of `_meta` stays.
 */
export function withoutApp(tool: WireTool): WireTool {
  if (!tool._meta) return tool;
  const { _meta, ...rest } = tool;
  const meta = withoutAppView(_meta);
  return meta ? { ...rest, _meta: meta } : rest;
}
