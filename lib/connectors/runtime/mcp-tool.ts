import { CLIENT_CAPABILITIES_META_KEY, isInputRequiredResult, LOG_LEVEL_META_KEY, ProtocolError, SdkError, type CallToolResult, type LoggingLevel } from "@modelcontextprotocol/client";
import { type CallFlight, callerlessFlight, RELAYED_CAPABILITIES, runInFlight } from "@/lib/connectors/runtime/call-flight";
import { scrubFlight, scrubJson } from "@/lib/connectors/runtime/scrub-flight";
import { logger } from "@/lib/log";
import { redactSecrets } from "@/lib/connectors/secret-headers";
import { loadUpstreamSettings } from "@/lib/connectors/runtime/connector-secrets";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import { isCallScoped, scrubbedRpcError, UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import type { ToolCallResult, UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamConnection, UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import type { SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { setting } from "@/lib/config/settings";

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
}

/** Runs one call; never throws. */
export async function callMcpTool(call: McpToolCall, pool: UpstreamPool): Promise<RuntimeAnswer> {
  const url = call.connector.config.url;
  if (!url) return failed(`The tool "${call.tool.exposedName}" has no upstream MCP server configured.`);
  // The headers a new connection is opened with: its failures are scrubbed of them too.
  let loaded: Record<string, string> = {};
  const target = {
    url,
    configVersion: call.configVersion,
    loadSettings: async () => {
      try {
        const settings = await loadUpstreamSettings(call.connector.orgId, call.connector.id);
        loaded = settings.headers;
        return settings;
      } catch {
        throw new Error("the connector's credentials cannot be loaded; ask an admin to check the connector");
      }
    },
  };
  // One retry, only when the upstream forgot our session (it restarted): the request was
  // refused before any tool ran, so sending it again on a new session is safe.
  for (let attempt = 0; ; attempt++) {
    let used: UpstreamConnection | undefined;
    try {
      return await pool.use(call.owner, target, async (connection) => {
        used = connection;
        return toAnswer(scrubInputRequired(await sendCall(connection, call), connection.headers), call.flight);
      });
    } catch (e) {
      if (!used) return failed(`The upstream MCP server could not be reached: ${describe(e, loaded)}`);
      if (call.signal?.aborted) return failed("The call was cancelled.");
      const scrubbed = describe(e, used.headers);
      if (e instanceof ProtocolError && call.flight?.refused) return toAnswer({ content: [] }, call.flight);
      if (e instanceof ProtocolError) {
        const rpcError = scrubbedRpcError(e.code, e.message, e.data, used.headers);
        return { ...failed(`The upstream MCP server answered with an error (${e.code}): ${scrubbed}`), outcome: "isError", rpcError };
      }
      if (isCallScoped(e)) return failed(`The upstream MCP server's answer could not be used: ${scrubbed}`);
      const retry = attempt === 0 && lostSession(e, used);
      pool.drop(used);
      if (retry) continue;
      return failed(`The upstream MCP server is unreachable: ${scrubbed}. The connection was closed; the next call opens a new one.`);
    }
  }
}

/**
 * `tools/call` upstream inside the call's flight: progress relayed with the caller's own token
 * (the SDK gives the upstream a token of ours), the caller's capabilities and log level sent
 * per request on a 2026-07-28 upstream, its log level set on a 2025-era one first.
 */
async function sendCall(connection: UpstreamConnection, call: McpToolCall): Promise<CallToolResult> {
  const { flight } = call;
  const modern = (connection.protocolVersion ?? "") >= "2026-07-28";
  if (flight && !modern) await forwardLogLevel(connection, flight.logLevel);
  // Unknown capabilities (no caller) are declared as none, so the upstream may fall back; a
  // stateless 2025-era caller can still be asked (it answers what it has no handler for with -32601).
  const declared = flight?.clientCapabilities ?? (flight?.asksUndeclared ? RELAYED_CAPABILITIES : {});
  const meta = modern ? { [CLIENT_CAPABILITIES_META_KEY]: declared, ...(flight?.logLevel ? { [LOG_LEVEL_META_KEY]: flight.logLevel } : {}) } : undefined;
  // 2026-07-28 on both sides: the upstream's input_required is the caller's, keys and state as they are.
  const passThrough = !!flight?.passInputRequired && modern;
  // A requestState not ours (lib/mcp/serve/serve-tool-call.ts) can only be a 2026-07-28 upstream's.
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
        timeout: setting("UPSTREAM_CALL_TIMEOUT_MS"),
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
async function forwardLogLevel(connection: UpstreamConnection, level: LoggingLevel | undefined): Promise<void> {
  if (!level || connection.logLevel === level || !connection.client.getServerCapabilities()?.logging) return;
  connection.logLevel = level;
  try {
    await connection.client.setLoggingLevel(level, { timeout: setting("UPSTREAM_CALL_TIMEOUT_MS") });
  } catch (e) {
    logger.warn({ connection: connection.key, level, err: describe(e, connection.headers) }, "upstream refused logging/setLevel; the call goes on without it");
  }
}

/** A 2026-07-28 upstream's input_required passed through: its input requests scrubbed, its requestState untouched (the upstream checks it). */
function scrubInputRequired(result: CallToolResult, headers: Record<string, string>): CallToolResult {
  if (!isInputRequiredResult(result)) return result;
  const inputRequests = (result as { inputRequests?: unknown }).inputRequests;
  return { ...result, inputRequests: scrubJson(inputRequests, headers) ?? {} } as CallToolResult;
}

function toAnswer(result: CallToolResult, flight?: CallFlight): RuntimeAnswer {
  // Passed through to a 2026-07-28 caller, which answers and retries (lib/mcp/serve/serve-tool-call.ts).
  if (isInputRequiredResult(result)) return { result: result as unknown as ToolCallResult, outcome: "ok" };
  // The upstream asked for input this caller cannot give: the caller gets -32021, whatever the tool made of the refusal.
  if (flight?.refused) {
    const { code, message, data } = flight.refused;
    return { ...failed(`The upstream MCP server needed a client capability the caller lacks (${code}): ${message}`), outcome: "isError", rpcError: new UpstreamRpcError(code, message, data) };
  }
  const answer: ToolCallResult = { content: (result.content ?? []) as ToolCallResult["content"] };
  const structured = result.structuredContent;
  if (structured && typeof structured === "object" && !Array.isArray(structured)) answer.structuredContent = structured as Record<string, unknown>;
  if (result.isError) answer.isError = true;
  return { result: answer, outcome: result.isError ? "isError" : "ok" };
}

/** A 404 on a connection that had a session: the 2025-era signal to start a new session. */
function lostSession(e: unknown, connection: UpstreamConnection): boolean {
  const status = (e as { data?: { status?: unknown } }).data?.status;
  return e instanceof SdkError && status === 404 && connection.transport.sessionId !== undefined;
}

function describe(e: unknown, headers: Record<string, string>): string {
  const parts: string[] = [];
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const message = err instanceof Error ? err.message : String(err);
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
  }
  const text = parts.join(": ").replace(/\s+/g, " ").trim() || "unknown error";
  return redactSecrets(text, headers).slice(0, 500);
}
