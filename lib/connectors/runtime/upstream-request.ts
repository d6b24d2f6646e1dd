import { ProtocolError, SdkError, type Client } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { redactSecrets } from "@/lib/connectors/secret-headers";
import { isCallScoped, scrubbedRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import { loadUpstreamSettings } from "@/lib/connectors/runtime/connector-secrets";
import type { UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamConnection, UpstreamPool, UpstreamTarget } from "@/lib/connectors/runtime/upstream-pool";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { setting } from "@/lib/config/settings";
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
}

/** Sends one request upstream; throws ProtocolError only. */
export async function requestUpstream<T>(request: UpstreamRequest<T>, pool: UpstreamPool = upstreamPool()): Promise<T> {
  const { connector, view } = request;
  const url = connector.config.url;
  if (!url) throw new ProtocolError(INTERNAL_ERROR, "The connector has no upstream MCP server configured.");
  let loaded: Record<string, string> = {};
  const target: UpstreamTarget = {
    url,
    configVersion: view.snapshot.configVersion,
    loadSettings: async () => {
      const settings = await loadUpstreamSettings(connector.orgId, connector.id).catch(() => {
        throw new Error("the connector's credentials cannot be loaded; ask an admin to check the connector");
      });
      loaded = settings.headers;
      return settings;
    },
  };
  const owner = upstreamOwner(request.caller, view, connector);
  for (let attempt = 0; ; attempt++) {
    let used: UpstreamConnection | undefined;
    try {
      return await pool.use(owner, target, (connection) => {
        used = connection;
        return request.work(connection.client, { signal: request.signal, timeout: setting("UPSTREAM_CALL_TIMEOUT_MS") }, connection);
      });
    } catch (e) {
      if (!used) throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server could not be reached: ${describe(e, loaded)}`);
      if (e instanceof ProtocolError) {
        // Message and data both: an upstream may quote the credential it was sent in either.
        const scrubbed = scrubbedRpcError(e.code, e.message, e.data, used.headers);
        throw new ProtocolError(scrubbed.code, scrubbed.message, scrubbed.data);
      }
      if (isCallScoped(e)) throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server's answer could not be used: ${describe(e, used.headers)}`);
      // The upstream forgot our session (it restarted): nothing ran, so asking again is safe.
      const retry = attempt === 0 && lostSession(e, used);
      // A cancelled request says nothing about the connection; anything else may mean it died.
      if (!request.signal?.aborted) pool.drop(used);
      if (retry) continue;
      throw new ProtocolError(INTERNAL_ERROR, `The upstream MCP server did not answer: ${describe(e, used.headers)}`);
    }
  }
}

function lostSession(e: unknown, connection: UpstreamConnection): boolean {
  const status = (e as { data?: { status?: unknown } }).data?.status;
  return e instanceof SdkError && status === 404 && connection.transport.sessionId !== undefined;
}

function describe(e: unknown, headers: Record<string, string>): string {
  const message = e instanceof Error ? e.message : String(e);
  return redactSecrets(message.replace(/\s+/g, " ").trim() || "unknown error", headers).slice(0, 500);
}
