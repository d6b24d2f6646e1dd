import type { Caller } from "@/lib/auth/caller";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import type { CallerView, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";

/** What every content block may carry beside its own fields; an upstream's are passed on as sent. */
interface ContentExtras {
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The MCP `tools/call` result shape the endpoint sends back to the client. */
export interface ToolCallResult {
  content: Array<
    ContentExtras &
      (
        | { type: "text"; text: string }
        | { type: "image"; data: string; mimeType: string }
        | { type: "audio"; data: string; mimeType: string }
        | { type: "resource"; resource: Record<string, unknown> }
        | { type: "resource_link"; uri: string; name: string; mimeType?: string }
      )
  >;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** The upstream result's `_meta`, passed on as sent (MCP Apps read it in the view). */
  _meta?: Record<string, unknown>;
}

/** One tool call, as the MCP endpoint hands it to the connector runtime. */
export interface ToolCallInput {
  caller: Caller;
  view: CallerView;
  tool: SnapshotTool;
  args: Record<string, unknown>;
  signal?: AbortSignal;
  /** The calling client's side of the call in flight (progress, log messages, client input). */
  flight?: CallFlight;
}

/** Who an outbound upstream MCP connection belongs to: exactly one (workspace, user, connector). */
export interface UpstreamOwner {
  orgId: string;
  workspaceId: string;
  /** The user on whose behalf tools run; null for the instance credential (sees the workspace's shared files only). */
  userId: string | null;
  connectorId: string;
}
