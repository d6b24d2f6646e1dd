import { beginToolCallEvent, finishToolCallEvent } from "@/lib/connectors/runtime/audit-call";
import { assertStorableArguments } from "@/lib/connectors/runtime/check-argument-text";
import { callHttpTool } from "@/lib/connectors/runtime/http-tool";
import { callMcpTool } from "@/lib/connectors/runtime/mcp-tool";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import type { ToolCallInput, ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { invalidArgumentsMessage } from "@/lib/connectors/runtime/validate-arguments";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { errorText, logger } from "@/lib/log";
import { countUpstreamCall } from "@/lib/ops/metrics";
import { countToolCall } from "@/lib/usage/count-tool-call";

/**
 * The connector runtime: executes one tool call the MCP endpoint has already authorized (the
 * tool is in the caller's view). "A tool call is never executed without its audit event":
 * arguments the audit log could not store are refused (InvalidToolArgumentsError), then the
 * event is written before anything leaves the platform (ToolCallNotAuditedError when it
 * cannot be). Those two are the only throws before the call; after them every failure —
 * arguments that do not fit the tool's inputSchema, the HTTP API or upstream MCP server
 * failing — is an isError result the model can read, and the event is completed with the
 * outcome. The one exception: a JSON-RPC error the upstream MCP server answered is recorded,
 * then thrown as UpstreamRpcError for the protocol layer to pass on as that error.
 */
export async function callTool(input: ToolCallInput, pool: UpstreamPool = upstreamPool()): Promise<ToolCallResult> {
  assertStorableArguments(input.args);
  const eventId = await beginToolCallEvent(input);
  const started = performance.now();
  let answer: RuntimeAnswer;
  try {
    answer = await execute(input, pool);
  } catch (e) {
    // Each path turns its own failures into results; this is the last guard against a crash.
    logger.error({ err: errorText(e), tool: input.tool.exposedName }, "tool call failed unexpectedly");
    answer = failed("The tool call failed unexpectedly.");
  }
  const kind = input.view.connectors.find((c) => c.id === input.tool.connectorId)?.type;
  if (kind) countUpstreamCall(kind, answer.outcome);
  const durationMs = Math.round(performance.now() - started);
  countToolCall(input, answer, durationMs);
  await finishToolCallEvent(eventId, input, { result: answer.result, outcome: answer.outcome, durationMs, errorCode: answer.rpcError?.code });
  if (answer.rpcError) throw answer.rpcError;
  return answer.result;
}

async function execute(input: ToolCallInput, pool: UpstreamPool): Promise<RuntimeAnswer> {
  const { tool, view, args } = input;
  const connector = view.connectors.find((c) => c.id === tool.connectorId);
  if (!connector) return failed(`Unknown tool: ${tool.exposedName}`);
  const invalid = invalidArgumentsMessage(tool.inputSchema, args);
  if (invalid) return { ...failed(invalid), notSent: true };
  if (connector.type === "http") return callHttpTool(connector, tool, args, view.snapshot.configVersion, input.signal, { userId: input.caller.kind === "user" ? input.caller.userId : null, flight: input.flight });
  const { server } = view.snapshot;
  const owner: UpstreamOwner = {
    orgId: server.orgId,
    workspaceId: server.workspaceId,
    userId: input.caller.kind === "user" ? input.caller.userId : null,
    connectorId: connector.id,
  };
  return callMcpTool({ owner, connector, tool, args, configVersion: view.snapshot.configVersion, signal: input.signal, flight: input.flight }, pool);
}
