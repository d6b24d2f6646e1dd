import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { type CallFlight, laneOf } from "@/lib/connectors/runtime/call-flight";
import { sendUpstream } from "@/lib/connectors/runtime/send-upstream";
import type { UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamConnection, UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { setting } from "@/lib/config/settings";
import { connectRpcError } from "@/lib/connectors/upstream-auth/connect-answer";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * Requests other than tools/call that the gateway forwards to an `mcp` connector's upstream —
 * prompts/get, resources/read, resources/subscribe and unsubscribe, completion/complete —
 * over the caller's own pooled connection (one per workspace, user and connector, as tool
 * calls use). They are not tool executions, so failures stay JSON-RPC errors: an error the
 * upstream answered keeps its code and data (message and data scrubbed of the connector's
 * secrets); an unreachable upstream is -32603.
 */

const INTERNAL_ERROR = -32603;

/** The connection owner of `caller` for `connector` on the view's server. */
export function upstreamOwner(caller: Caller, view: CallerView, connector: SnapshotConnector): UpstreamOwner {
  const { server } = view.snapshot;
  return { orgId: server.orgId, workspaceId: server.workspaceId, userId: caller.kind === "user" ? caller.userId : null, connectorId: connector.id };
}

export interface UpstreamRequest<T> {
  caller: Caller;
  view: CallerView;
  connector: SnapshotConnector;
  /** `connection`: its era and headers, for a request that carries the caller's flight (prompts/get). */
  work: (client: Client, options: { signal?: AbortSignal; timeout: number }, connection: UpstreamConnection) => Promise<T>;
  signal?: AbortSignal;
  /** The caller's flight, when the request carries one: it picks the caller's connection (`laneOf`). */
  flight?: CallFlight;
  /** A call in flight's timeout, from the call pipeline's limits step; other requests wait UPSTREAM_CALL_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Sends one request upstream; throws ProtocolError only. */
export async function requestUpstream<T>(request: UpstreamRequest<T>, pool: UpstreamPool = upstreamPool()): Promise<T> {
  const { connector, view } = request;
  const timeout = request.timeoutMs ?? setting("UPSTREAM_CALL_TIMEOUT_MS");
  const sent = await sendUpstream(
    {
      owner: upstreamOwner(request.caller, view, connector),
      connector,
      configVersion: view.snapshot.configVersion,
      signal: request.signal,
      lane: laneOf(request.flight),
      work: (connection) => request.work(connection.client, { signal: request.signal, timeout }, connection),
    },
    pool,
  );
  if (sent.ok) return sent.value;
  switch (sent.kind) {
    case "unconfigured":
      throw new ProtocolError(INTERNAL_ERROR, "The connector has no upstream MCP server configured.");
    case "unreachable":
      throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server could not be reached: ${sent.detail}`);
    case "rpc":
      throw new ProtocolError(sent.rpcError.code, sent.rpcError.message, sent.rpcError.data);
    case "call-scoped":
      throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server's answer could not be used: ${sent.detail}`);
    case "dead":
      throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server did not answer: ${sent.detail}`);
    case "needs_connection": {
      const { code, message, data } = connectRpcError(sent.missing, request.flight);
      throw new ProtocolError(code, message, data);
    }
  }
}
