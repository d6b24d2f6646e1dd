import { auditToolCall } from "@/lib/connectors/runtime/audit-call";
import { callHttpTool } from "@/lib/connectors/runtime/http-tool";
import { callMcpTool } from "@/lib/connectors/runtime/mcp-tool";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import type { ToolCallInput, ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { invalidArgumentsMessage } from "@/lib/connectors/runtime/validate-arguments";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { errorText, logger } from "@/lib/log";
import { countUpstreamCall } from "@/lib/ops/metrics";

/**
 * The connector runtime: executes one tool call the MCP endpoint has already authorized (the
 * tool is in the caller's view). Arguments are validated against the tool's inputSchema
 * first; the call then goes to the connector's HTTP API or upstream MCP server; every call is
 * audited. Never throws: every failure is an isError result the model can read.
 */
export async function callTool(input: ToolCallInput, pool: UpstreamPool = upstreamPool()): Promise<ToolCallResult> {
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
  await auditToolCall({
    caller: input.caller,
    view: input.view,
    tool: input.tool,
    args: input.args,
    result: answer.result,
    outcome: answer.outcome,
    durationMs: Math.round(performance.now() - started),
  });
  return answer.result;
}

async function execute(input: ToolCallInput, pool: UpstreamPool): Promise<RuntimeAnswer> {
  const { tool, view, args } = input;
  const connector = view.connectors.find((c) => c.id === tool.connectorId);
  if (!connector) return failed(`Unknown tool: ${tool.exposedName}`);
  const invalid = invalidArgumentsMessage(tool.inputSchema, args);
  if (invalid) return failed(invalid);
  if (connector.type === "http") return callHttpTool(connector, tool, args, input.signal);
  const { server } = view.snapshot;
  const owner: UpstreamOwner = {
    orgId: server.orgId,
    workspaceId: server.workspaceId,
    userId: input.caller.kind === "user" ? input.caller.userId : null,
    connectorId: connector.id,
  };
  return callMcpTool({ owner, connector, tool, args, configVersion: view.snapshot.configVersion, signal: input.signal }, pool);
}
