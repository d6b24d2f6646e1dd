import { isInputRequiredResult, ProtocolError, ResourceNotFoundError, Server, type CallToolResult, type LoggingLevel, type ReadResourceResult, type Tool } from "@modelcontextprotocol/server";
import type { ResourceCatalog } from "@/lib/resources/resource-catalog";
import { ToolCallNotAuditedError } from "@/lib/connectors/runtime/audit-call";
import { InvalidToolArgumentsError } from "@/lib/connectors/runtime/check-argument-text";
import { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import type { ToolSet } from "@/lib/mcp/surface/surface-types";
import { flightSignal, serveToolCall } from "@/lib/mcp/serve/serve-tool-call";

/**
 * The protocol layer: a low-level SDK Server whose handlers answer from precomputed parts.
 * Building one costs a few handler registrations — no per-tool work — which is what lets
 * stateless serving build one per request (notes/mcp-sdk.md, "What stateless serving costs").
 */

export interface ServerParts {
  info: { name: string; version: string };
  /** Sent in initialize / server/discover when not empty. */
  instructions: string;
  /** Null: no resources capability, no resources/* handlers. */
  resources: ResourceCatalog | null;
  /** Read on every request, so a live session can swap its tools when they change. */
  tools: () => ToolSet;
  /** Whether this connection can be told about tool list changes. */
  toolsListChanged: boolean;
  /** The 2025-era versions initialize may agree on (2025-era serving only; the SDK's own list otherwise). */
  protocolVersions?: string[];
}

/** JSON-RPC "Invalid params": an unknown tool, hidden or missing alike; arguments refused. */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** The runtime's two refusals, made before the call left the platform, and the upstream's own JSON-RPC errors. */
function refusal(e: unknown): unknown {
  if (e instanceof InvalidToolArgumentsError) return new ProtocolError(INVALID_PARAMS, e.message, { path: e.pointer });
  if (e instanceof ToolCallNotAuditedError) return new ProtocolError(INTERNAL_ERROR, e.message);
  if (e instanceof UpstreamRpcError) return new ProtocolError(e.code, e.message, e.data);
  return e;
}

export function buildServer(parts: ServerParts): Server {
  const { resources } = parts;
  const server = new Server(parts.info, {
    capabilities: {
      tools: { listChanged: parts.toolsListChanged },
      // Upstream log messages are relayed during a call (lib/mcp/serve/serve-tool-call.ts).
      logging: {},
      ...(resources ? { resources: { listChanged: false } } : {}),
    },
    ...(parts.instructions ? { instructions: parts.instructions } : {}),
    ...(parts.protocolVersions ? { supportedProtocolVersions: parts.protocolVersions } : {}),
  });
  server.setRequestHandler("tools/list", () => ({ tools: parts.tools().list as Tool[] }));
  // A 2025-era session's level: forwarded to upstream connections with its next call (lib/connectors/runtime/mcp-tool.ts).
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler("logging/setLevel", (request) => {
    logLevel = request.params.level;
    return {};
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name } = request.params;
    const legacy = { clientCapabilities: server.getClientCapabilities(), logLevel };
    const args = request.params.arguments ?? {};
    const answer = await serveToolCall(ctx, (flight) => parts.tools().call(name, args, flightSignal(flight), flight), legacy).catch((e: unknown) => {
      throw refusal(e);
    });
    // The same answer whether the tool is hidden from this caller or does not exist.
    if (!answer) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${name}`);
    if (isInputRequiredResult(answer)) return answer; // the client answers and retries
    return server.projectCallToolResult(answer as CallToolResult, undefined);
  });
  if (resources) {
    server.setRequestHandler("resources/list", () => ({ resources: resources.list() }));
    server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
    server.setRequestHandler("resources/read", (request) => {
      const found = resources.read(request.params.uri);
      // Not found and not visible are one answer (seed 004). The SDK puts -32602 {uri} on the
      // wire; 2025-era transports restore -32002 (lib/mcp/serve/legacy-transport.ts).
      if (!found) throw new ResourceNotFoundError(request.params.uri);
      return found as ReadResourceResult;
    });
  }
  return server;
}
