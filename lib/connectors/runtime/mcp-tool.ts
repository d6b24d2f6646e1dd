import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult } from "@modelcontextprotocol/client";
import { redactSecrets } from "@/lib/connectors/secret-headers";
import { loadUpstreamSettings } from "@/lib/connectors/runtime/connector-secrets";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import { scrubbedRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
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
}


/** SDK errors about this one call, not about the connection. */
const CALL_SCOPED: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
]);

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
        const result = await connection.client.callTool(
          { name: call.tool.name, arguments: call.args },
          { signal: call.signal, timeout: setting("UPSTREAM_CALL_TIMEOUT_MS") },
        );
        return toAnswer(result);
      });
    } catch (e) {
      if (!used) return failed(`The upstream MCP server could not be reached: ${describe(e, loaded)}`);
      if (call.signal?.aborted) return failed("The call was cancelled.");
      const scrubbed = describe(e, used.headers);
      if (e instanceof ProtocolError) {
        const rpcError = scrubbedRpcError(e.code, e.message, e.data, used.headers);
        return { ...failed(`The upstream MCP server answered with an error (${e.code}): ${scrubbed}`), outcome: "isError", rpcError };
      }
      if (e instanceof SdkError && CALL_SCOPED.has(e.code)) return failed(`The upstream MCP server's answer could not be used: ${scrubbed}`);
      const retry = attempt === 0 && lostSession(e, used);
      pool.drop(used);
      if (retry) continue;
      return failed(`The upstream MCP server is unreachable: ${scrubbed}. The connection was closed; the next call opens a new one.`);
    }
  }
}

function toAnswer(result: CallToolResult): RuntimeAnswer {
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
