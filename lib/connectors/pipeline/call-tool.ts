import { auditCall } from "@/lib/connectors/pipeline/audit-call";
import type { CallContext, CallStep } from "@/lib/connectors/pipeline/call-context";
import { checkToolArguments, refuseUnstorableArguments } from "@/lib/connectors/pipeline/check-arguments";
import { countMetrics } from "@/lib/connectors/pipeline/count-metrics";
import { countUsage } from "@/lib/connectors/pipeline/count-usage";
import { limitCall, limitsOf } from "@/lib/connectors/pipeline/limit-call";
import { runCall } from "@/lib/connectors/pipeline/run-call";
import { callHttpTool } from "@/lib/connectors/runtime/http-tool";
import { callMcpTool } from "@/lib/connectors/runtime/mcp-tool";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import type { ToolCallInput, ToolCallResult } from "@/lib/connectors/runtime/types";
import type { UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { upstreamOwner } from "@/lib/connectors/runtime/upstream-request";
import { rememberResourceLinks } from "@/lib/connectors/runtime/linked-resources";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { errorText, logger } from "@/lib/log";

/**
 * tools/call through the call pipeline, for a tool the MCP endpoint has already authorized
 * (the tool is in the caller's view). "A tool call is never executed without its audit
 * event": arguments the audit log could not store are refused (InvalidToolArgumentsError),
 * then the event is written before anything leaves the platform (CallNotAuditedError when it
 * cannot be). Those two are the only throws before the call; after them every failure —
 * arguments that do not fit the tool's inputSchema, the HTTP API or upstream MCP server
 * failing — is an isError result the model can read, audited, counted. The one exception: a
 * JSON-RPC error the upstream MCP server answered is recorded, then thrown as UpstreamRpcError
 * for the protocol layer to pass on as that error.
 */
const TOOL_CALL: readonly CallStep[] = [refuseUnstorableArguments, auditCall, countMetrics, countUsage, checkToolArguments, limitCall];

export async function callTool(input: ToolCallInput, pool: UpstreamPool = upstreamPool()): Promise<ToolCallResult> {
  const connector = input.view.connectors.find((c) => c.id === input.tool.connectorId);
  if (!connector) return failed(`Unknown tool: ${input.tool.exposedName}`).result;
  const ctx: CallContext = {
    kind: "tools/call",
    caller: input.caller,
    view: input.view,
    connector,
    names: { exposed: input.tool.exposedName, upstream: input.tool.name },
    tool: input.tool,
    args: input.args,
    signal: input.signal,
    flight: input.flight,
  };
  return runCall(ctx, TOOL_CALL, (c) => execute(c, pool));
}

/** The terminal step: the HTTP request or the upstream tools/call. Never throws. */
async function execute(ctx: CallContext, pool: UpstreamPool): Promise<RuntimeAnswer & { thrown?: unknown; errorCode?: number }> {
  let answer: RuntimeAnswer;
  try {
    answer = await send(ctx, pool);
  } catch (e) {
    // Each path turns its own failures into results; this is the last guard against a crash.
    logger.error({ err: errorText(e), tool: ctx.names.exposed }, "tool call failed unexpectedly");
    answer = failed("The tool call failed unexpectedly.");
  }
  return answer.rpcError ? { ...answer, thrown: answer.rpcError, errorCode: answer.rpcError.code } : answer;
}

async function send(ctx: CallContext, pool: UpstreamPool): Promise<RuntimeAnswer> {
  const { connector, view } = ctx;
  const tool = ctx.tool!;
  const args = ctx.args ?? {};
  const limits = limitsOf(ctx);
  if (connector.type === "http") {
    const access = { userId: ctx.caller.kind === "user" ? ctx.caller.userId : null, flight: ctx.flight };
    return callHttpTool(connector, tool, args, view.snapshot.configVersion, ctx.signal, access, { timeoutMs: limits.timeoutMs, maxResponseBytes: limits.maxResponseBytes! });
  }
  const owner = upstreamOwner(ctx.caller, view, connector);
  const answer = await callMcpTool({ owner, connector, tool, args, configVersion: view.snapshot.configVersion, signal: ctx.signal, flight: ctx.flight, timeoutMs: limits.timeoutMs }, pool);
  // Its resource links can be read back through this connector, though its server lists them nowhere.
  rememberResourceLinks(owner, answer.result);
  return answer;
}
