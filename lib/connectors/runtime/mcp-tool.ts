import { CLIENT_CAPABILITIES_META_KEY, isInputRequiredResult, LOG_LEVEL_META_KEY, ProtocolError, type CallToolResult, type LoggingLevel } from "@modelcontextprotocol/client";
import { type CallFlight, callerlessFlight, laneOf, runInFlight } from "@/lib/connectors/runtime/call-flight";
import { scrubFlight, scrubResult } from "@/lib/connectors/runtime/scrub-flight";
import { logger } from "@/lib/log";
import { describeUpstreamError } from "@/lib/connectors/describe-upstream-error";
import { sendUpstream } from "@/lib/connectors/runtime/send-upstream";
import { traceUpstream } from "@/lib/observability/tracing";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import type { ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamConnection, UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import type { SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { connectAnswer } from "@/lib/connectors/upstream-auth/connect-answer";

/**
 * Executes a tool of an `mcp` connector: `tools/call` with the tool's upstream name over the
 * owner's pooled connection. A dead connection is an isError result and is dropped, so the
 * next call opens a new one; a JSON-RPC error the upstream itself answered keeps the
 * connection and is passed on as that error (`rpcError`).
 */

export interface McpToolCall {
  owner: UpstreamOwner;
  connector: SnapshotConnector;
  tool: SnapshotTool;
  args: Record<string, unknown>;
  configVersion: number;
  signal?: AbortSignal;
  /** The calling client's side of the call: progress, log messages, client input. */
  flight?: CallFlight;
  /** How long the upstream has to answer (the call pipeline's limits step: UPSTREAM_CALL_TIMEOUT_MS), reset by its progress. */
  timeoutMs: number;
}

/** Runs one call; never throws. */
export async function callMcpTool(call: McpToolCall, pool: UpstreamPool): Promise<RuntimeAnswer> {
  // The span of the whole upstream call (connecting included); the requests it makes are
  // undici's spans under it, each sending its traceparent (lib/observability/start-tracing.ts).
  const url = call.connector.config.url ? URL.parse(call.connector.config.url) : null;
  const sent = await traceUpstream("mcp", "tools/call", url, () => sendUpstream(
    {
      owner: call.owner,
      connector: call.connector,
      configVersion: call.configVersion,
      signal: call.signal,
      lane: laneOf(call.flight),
      work: async (connection) => toAnswer(scrubResult(await sendCall(connection, call), connection.headers, withheld), call.flight),
    },
    pool,
  ));
  if (sent.ok) return sent.value;
  if (sent.kind === "needs_connection") return connectAnswer(sent.missing, call.flight);
  if (sent.kind === "unconfigured") return failed(`The tool "${call.tool.exposedName}" has no upstream MCP server configured.`);
  if (sent.kind === "unreachable") return failed(`The upstream MCP server could not be reached: ${sent.detail}`);
  if (call.signal?.aborted) return failed("The call was cancelled.");
  if (sent.kind === "rpc" && call.flight?.refused) return toAnswer({ content: [] }, call.flight);
  if (sent.kind === "rpc") return { ...failed(`The upstream MCP server answered with an error (${sent.error.code}): ${sent.detail}`), outcome: "isError", rpcError: sent.rpcError };
  if (sent.kind === "call-scoped") return failed(`The upstream MCP server's answer could not be used: ${sent.detail}`);
  return failed(`The upstream MCP server is unreachable: ${sent.detail}. The connection was closed; the next call opens a new one.`);
}

/**
 * `tools/call` upstream inside the call's flight: progress relayed with the caller's own token
 * (the SDK gives the upstream a token of ours), the caller's capabilities and log level sent
 * per request on a 2026-07-28 upstream, its log level set on a 2025-era one first.
 */
async function sendCall(connection: UpstreamConnection, call: McpToolCall): Promise<CallToolResult> {
  const { flight } = call;
  const modern = (connection.protocolVersion ?? "") >= "2026-07-28";
  if (flight && !modern) await forwardLogLevel(connection, flight.logLevel, call.timeoutMs);
  // Unknown capabilities (no caller, a stateless 2025-era one) are declared as none, so the
  // upstream may fall back: a 2026-07-28 upstream's input_required refused would end the whole
  // call (the SDK client's driver gives the upstream no -32021 to fall back on).
  const declared = flight?.clientCapabilities ?? {};
  const meta = modern ? { [CLIENT_CAPABILITIES_META_KEY]: declared, ...(flight?.logLevel ? { [LOG_LEVEL_META_KEY]: flight.logLevel } : {}) } : undefined;
  // 2026-07-28 on both sides: the upstream's input_required is the caller's, keys and state as they are.
  const passThrough = !!flight?.passInputRequired && modern;
  // A requestState not ours (lib/mcp/serve/protocol/serve-tool-call.ts) can only be a 2026-07-28 upstream's.
  if (flight?.retry?.requestState !== undefined && !passThrough) throw new ProtocolError(-32602, "Invalid or expired requestState", { reason: "invalid_request_state" });
  const retry = passThrough ? flight?.retry : undefined;
  // What the upstream relays to the caller goes through the scrubbed view of its flight.
  const relay = scrubFlight(flight ?? callerlessFlight(), connection.headers);
  return runInFlight(relay, () =>
    connection.client.callTool(
      { name: call.tool.name, arguments: call.args, ...(meta ? { _meta: meta } : {}), ...(retry?.inputResponses ? { inputResponses: retry.inputResponses } : {}), ...(retry?.requestState !== undefined ? { requestState: retry.requestState } : {}) },
      {
        signal: call.signal,
        ...(passThrough ? { allowInputRequired: true } : {}),
        timeout: call.timeoutMs,
        ...(flight ? { onprogress: (p: { progress: number; total?: number; message?: string }) => relay.progress(p), resetTimeoutOnProgress: true } : {}),
      },
    ),
  );
}

/**
 * logging/setLevel on a 2025-era upstream that declares logging, with the level the caller set
 * (none: nothing is sent), when it differs from the last one tried. Best effort: an upstream
 * that refuses it or does not answer is logged and remembered, and the tool call goes on.
 */
async function forwardLogLevel(connection: UpstreamConnection, level: LoggingLevel | undefined, timeoutMs: number): Promise<void> {
  if (!level || connection.logLevel === level || !connection.client.getServerCapabilities()?.logging) return;
  connection.logLevel = level;
  try {
    await connection.client.setLoggingLevel(level, { timeout: timeoutMs });
  } catch (e) {
    logger.warn({ connection: connection.key, level, err: describeUpstreamError(e, connection.headers) }, "upstream refused logging/setLevel; the call goes on without it");
  }
}


/** A result whose JSON the redaction of a secret broke: dropped rather than leaked. */
const withheld = (): CallToolResult => ({ content: [{ type: "text", text: "The upstream MCP server's answer held a secret of this connection and was withheld." }], isError: true });

function toAnswer(result: CallToolResult, flight?: CallFlight): RuntimeAnswer {
  // Passed through to a 2026-07-28 caller, which answers and retries (lib/mcp/serve/protocol/serve-tool-call.ts).
  if (isInputRequiredResult(result)) return { result: result as unknown as ToolCallResult, outcome: "ok" };
  // The upstream asked for input this caller cannot give: the caller gets -32021, whatever the tool made of the refusal.
  if (flight?.refused) {
    const { code, message, data } = flight.refused;
    return { ...failed(`The upstream MCP server needed a client capability the caller lacks (${code}): ${message}`), outcome: "isError", rpcError: new UpstreamRpcError(code, message, data) };
  }
  const answer: ToolCallResult = { content: (result.content ?? []) as ToolCallResult["content"] };
  // Any JSON value as sent: a 2026-07-28 tool may return an array or a primitive (the 2025 wire wraps it, build-server.ts).
  const structured = result.structuredContent;
  if (structured !== undefined) answer.structuredContent = structured as Record<string, unknown>;
  if (result.isError) answer.isError = true;
  // The result's own `_meta` as sent (the SDK client keeps only its own keys on the request side).
  const meta = result._meta;
  if (meta && typeof meta === "object" && !Array.isArray(meta)) answer._meta = meta as Record<string, unknown>;
  return { result: answer, outcome: result.isError ? "isError" : "ok" };
}
