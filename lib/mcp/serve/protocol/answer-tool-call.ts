import { isInputRequiredResult, ProtocolError, type CallToolResult, type ServerContext } from "@modelcontextprotocol/server";
import { CallNotAuditedError } from "@/lib/connectors/pipeline/audit-call";
import { InvalidToolArgumentsError } from "@/lib/connectors/runtime/check-argument-text";
import { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import { withoutUpstreamServerInfo } from "@/lib/connectors/mcp-fields";
import type { ToolSet } from "@/lib/mcp/surface/surface-types";
import { flightSignal, serveCallInFlight, type LegacyCaller } from "@/lib/mcp/serve/protocol/serve-tool-call";

/** JSON-RPC "Invalid params": an unknown tool, hidden or missing alike; arguments refused. */
export const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** The runtime's two refusals, made before the call left the platform, and the upstream's own JSON-RPC errors. */
export function refusal(e: unknown): unknown {
  if (e instanceof InvalidToolArgumentsError) return new ProtocolError(INVALID_PARAMS, e.message, { path: e.pointer });
  if (e instanceof CallNotAuditedError) return new ProtocolError(INTERNAL_ERROR, e.message);
  if (e instanceof UpstreamRpcError) return new ProtocolError(e.code, e.message, e.data);
  return e;
}

/** The SDK's projection of a tools/call result for the connection's wire (`Server.projectCallToolResult`). */
export type ProjectResult = (result: CallToolResult, advertisedOutputSchema?: Readonly<Record<string, unknown>>) => CallToolResult;

/**
 * tools/call as every serving path answers it — the SDK's Server (sessions, 2026-07-28) and the
 * direct stateless path (direct-tool-call.ts): the call in flight through the pipeline, its
 * refusals as JSON-RPC errors, an unknown tool (hidden or missing alike) as Invalid params,
 * and the result projected with the output schema tools/list advertised.
 */
export async function answerToolCall(tools: () => ToolSet, name: string, args: Record<string, unknown>, ctx: ServerContext, legacy: LegacyCaller, project: ProjectResult) {
  const answer = await serveCallInFlight(ctx, (flight) => tools().call(name, args, flightSignal(flight), flight), legacy).catch((e: unknown) => {
    throw refusal(e);
  });
  // The same answer whether the tool is hidden from this caller or does not exist.
  if (!answer) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${name}`);
  if (isInputRequiredResult(answer)) return answer; // the client answers and retries
  // With the schema tools/list advertised: the 2025 wire wraps a non-object result as the upstream's own server would.
  const advertised = tools().definition(name)?.outputSchema;
  return project(withoutUpstreamServerInfo(answer) as CallToolResult, advertised as never);
}
