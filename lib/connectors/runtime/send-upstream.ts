import { InsufficientScopeError, ProtocolError, SdkError } from "@modelcontextprotocol/client";
import { describeUpstreamError } from "@/lib/connectors/describe-upstream-error";
import { loadUpstreamSettings } from "@/lib/connectors/runtime/connector-secrets";
import { type EraFallback, recordEraFallback, recordFallbackVersion, refusalText, refusesModernPath, withdrawEraFallback } from "@/lib/connectors/runtime/era-fallback";
import { isCallScoped, scrubbedRpcError, type UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import type { UpstreamOwner } from "@/lib/connectors/runtime/types";
import type { UpstreamConnection, UpstreamPool, UpstreamTarget } from "@/lib/connectors/runtime/upstream-pool";
import type { UpstreamLane } from "@/lib/connectors/open-upstream";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { afterStepUp, type MissingCredential, upstreamCredential } from "@/lib/connectors/upstream-auth/credential";
import { NeedsReconnectError } from "@/lib/connectors/upstream-auth/tokens";
import { witnessTokens } from "@/lib/connectors/runtime/token-witness";

/**
 * The one way a request reaches an `mcp` connector's upstream — tools/call as much as
 * prompts/get, resources/read, subscribe and completion/complete: the connector's target
 * resolved (url, config version, credentials loaded only when the pool needs them), the
 * owner's pooled connection used, and a failure sorted by what it says about that
 * connection. Each caller maps the sorted failure to its own answer (an isError tool result,
 * a JSON-RPC error); none of them decides again whether to retry or drop.
 */

export interface UpstreamSend<T> {
  owner: UpstreamOwner;
  connector: SnapshotConnector;
  /** The org config version of the snapshot the request came from. */
  configVersion: number;
  signal?: AbortSignal;
  /** `legacy`: the caller is on a 2025-era wire (open-upstream.ts `UpstreamLane`). */
  lane?: UpstreamLane;
  work: (connection: UpstreamConnection) => Promise<T>;
}

export type UpstreamFailure =
  /** The connector has no upstream url. */
  | { kind: "unconfigured" }
  /** No connection could be had (connect, credentials): nothing was sent. */
  | { kind: "unreachable"; detail: string; error: unknown }
  /** The upstream answered a JSON-RPC error; the connection stays. */
  | { kind: "rpc"; detail: string; error: ProtocolError; rpcError: UpstreamRpcError }
  /** The SDK failed this request only (timeout, unusable result); the connection stays. */
  | { kind: "call-scoped"; detail: string; error: unknown }
  /** The connection failed; it was dropped unless the request was cancelled. */
  | { kind: "dead"; detail: string; error: unknown }
  /** The caller has no usable OAuth connection: nothing was sent (lib/connectors/upstream-auth). */
  | { kind: "needs_connection"; missing: MissingCredential };

export type UpstreamOutcome<T> = { ok: true; value: T } | ({ ok: false } & UpstreamFailure);

/** Runs `work` on the owner's connection; never throws. */
export async function sendUpstream<T>(send: UpstreamSend<T>, pool: UpstreamPool): Promise<UpstreamOutcome<T>> {
  const url = send.connector.config.url;
  if (!url) return { ok: false, kind: "unconfigured" };
  // The caller's OAuth token (or the connector's), resolved just before anything is sent.
  const credential = await upstreamCredential(send.connector, send.owner.userId, send.configVersion);
  if (credential.kind === "missing") return { ok: false, kind: "needs_connection", missing: credential };
  const reconnect = (): UpstreamOutcome<T> => ({ ok: false, kind: "needs_connection", missing: { kind: "missing", reason: "needs_reconnect", connectorId: send.connector.id, connectorName: send.connector.name, connectUrl: null } });
  // The headers a new connection is opened with, and the tokens it sent: its failures are scrubbed of them too.
  let loaded: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const target: UpstreamTarget = {
    url,
    configVersion: send.configVersion,
    lane: send.lane,
    ...(credential.kind === "token" ? { authProvider: witnessTokens(credential.provider, tokens), authKey: credential.connectionId ?? "machine" } : {}),
    loadSettings: async () => {
      const settings = await loadUpstreamSettings(send.connector.orgId, send.connector.id).catch(() => {
        throw new Error("the connector's credentials cannot be loaded; ask an admin to check the connector");
      });
      loaded = settings.headers;
      return settings;
    },
  };
  let fellBack = false;
  let recorded: EraFallback | null = null;
  for (let attempt = 0; ; attempt++) {
    let used: UpstreamConnection | undefined;
    try {
      const value = await pool.use(send.owner, target, (connection) => {
        used = connection;
        return send.work(connection);
      });
      if (fellBack) await recordFallbackVersion(send.connector.orgId, send.connector.id, used!.protocolVersion).catch(() => undefined);
      return { ok: true, value };
    } catch (e) {
      if (recorded) await withdrawEraFallback(send.connector.orgId, send.connector.id, recorded).catch(() => undefined);
      recorded = null;
      // The upstream wants a wider scope (403 insufficient_scope): only the person (an owner or admin for a shared account) can grant it.
      const scoped = causeOf(e, InsufficientScopeError);
      if (scoped && credential.kind === "token" && credential.connectionId) {
        // The connection stays connected for the caller's other calls (everyone's, when shared): its pooled session too.
        const missing = await afterStepUp(send.connector, send.owner.userId, { connectionId: credential.connectionId, shared: credential.shared }, scoped.requiredScope);
        return { ok: false, kind: "needs_connection", missing };
      }
      // A refused refresh: the connection now needs the person; this request was not answered.
      if (causedBy(e, NeedsReconnectError)) {
        if (used) pool.drop(used);
        return credential.kind === "token" ? await reconnectAnswer(send, reconnect) : reconnect();
      }
      if (!used) return { ok: false, kind: "unreachable", detail: describeUpstreamError(e, { ...loaded, ...tokens }), error: e };
      const detail = describeUpstreamError(e, used.headers);
      // An `auto` connection on 2026-07-28 whose request was refused as such: `initialize` from now on, this request again.
      if (attempt === 0 && used.laneMatters && refusesModernPath(e) && !send.signal?.aborted) {
        recorded = await recordEraFallback(send.connector.orgId, send.connector.id, refusalText(e, detail)).catch(() => null);
        pool.drop(used);
        fellBack = true;
        continue;
      }
      // Message and data both: an upstream may quote the credential it was sent in either.
      if (e instanceof ProtocolError) return { ok: false, kind: "rpc", detail, error: e, rpcError: scrubbedRpcError(e.code, e.message, e.data, used.headers) };
      if (isCallScoped(e)) return { ok: false, kind: "call-scoped", detail, error: e };
      // A cancelled request says nothing about the connection; anything else may mean it died.
      const cancelled = send.signal?.aborted === true;
      if (!cancelled) pool.drop(used);
      // One retry, only when the upstream forgot our session (it restarted): the request was
      // refused before anything ran, so sending it again on a new session is safe.
      if (attempt === 0 && !cancelled && lostSession(e, used)) continue;
      return { ok: false, kind: "dead", detail, error: e };
    }
  }
}

/** A 404 on a connection that had a session: the 2025-era signal to start a new session. */
function lostSession(e: unknown, connection: UpstreamConnection): boolean {
  const status = (e as { data?: { status?: unknown } }).data?.status;
  return e instanceof SdkError && status === 404 && connection.transport.sessionId !== undefined;
}


function causedBy(e: unknown, type: new (...args: never[]) => Error): boolean {
  return causeOf(e, type) !== undefined;
}

function causeOf<E extends Error>(e: unknown, type: new (...args: never[]) => E): E | undefined {
  for (let err: unknown = e, depth = 0; err && depth < 5; err = (err as { cause?: unknown }).cause, depth++) if (err instanceof type) return err;
  return undefined;
}

/** The caller's answer once their connection turned `needs_reconnect` (with their connect link). */
async function reconnectAnswer<T>(send: UpstreamSend<T>, fallback: () => UpstreamOutcome<T>): Promise<UpstreamOutcome<T>> {
  const again = await upstreamCredential(send.connector, send.owner.userId, send.configVersion).catch(() => null);
  return again?.kind === "missing" ? { ok: false, kind: "needs_connection", missing: again } : fallback();
}
