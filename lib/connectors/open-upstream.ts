import { type AuthProvider, Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ProtocolEra, UpstreamTransportKind } from "@/lib/connectors/upstream-protocol";

/**
 * How our platform, as an MCP client, opens a connection to the upstream server of an `mcp`
 * connector: the client (its protocol era) and the transport, as the connector says (issue 12
 * "Per connector: the protocol era … so one slightly-off upstream does not break every tool;
 * the legacy HTTP+SSE transport (2024-11-05) besides Streamable HTTP").
 */

/** Where and how to reach an upstream. */
export interface McpUpstream {
  url: string;
  /** Plaintext secret headers (decrypted by the caller); never logged. */
  headers: Record<string, string>;
  protocolEra?: ProtocolEra;
  transport?: UpstreamTransportKind;
  /** An `auto` connector whose 2026-07-28 path refused calls (lib/connectors/runtime/era-fallback.ts): `initialize` only. */
  fellBack?: boolean;
  /** An OAuth connector's token for this owner (lib/connectors/upstream-auth/credential.ts): asked before every request, refreshed once on a 401. */
  authProvider?: AuthProvider;
}

/**
 * Which connection of an owner a request uses: `legacy` for a caller on a 2025-era wire (an
 * `auto` connector then reaches the upstream by `initialize`, as that caller would, so the
 * upstream's 2025-era tools may ask it for input by server-to-client requests), `auto` for
 * everyone else (lib/connectors/runtime/upstream-pool.ts).
 */
export type UpstreamLane = "auto" | "legacy";

/** HTTP+SSE has no `Mcp-Session-Id`: its `sessionId` is always undefined. */
export type UpstreamTransport = StreamableHTTPClientTransport | (SSEClientTransport & { readonly sessionId?: undefined });

export const CLIENT_INFO = { name: "switchboard", version: "0.1.0" };
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
/** tools/list pages walked before we call the upstream's pagination broken. */
export const MAX_TOOL_PAGES = 1000;

/**
 * A fresh, unconnected client for the upstream's era:
 * - `auto` on Streamable HTTP probes 2026-era `server/discover` and falls back to `initialize`
 *   (on the `legacy` lane it is the `initialize` handshake at once);
 *   on HTTP+SSE, which only ever carried the 2025-era protocol, it is the `initialize`
 *   handshake with whatever 2025-era revision the upstream answers (2024-11-05 included);
 * - `2025-11-25` is the `initialize` handshake, refused unless the upstream agrees to 2025-11-25;
 * - `2026-07-28` must be offered by `server/discover`, with no fallback.
 */
export function createUpstreamClient(
  timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS,
  { protocolEra = "auto", transport = "streamable-http", fellBack = false }: Pick<McpUpstream, "protocolEra" | "transport" | "fellBack"> = {},
  /** `legacy`: an `auto` connector's connection for 2025-era callers, `initialize` without the probe. */
  lane: UpstreamLane = "auto",
): Client {
  // No `listChanged` option: on 2026-07-28 the SDK would await its listen stream inside
  // connect (lib/connectors/runtime/list-changed-handlers.ts listens after connect instead).
  const base = { capabilities: {}, listMaxPages: MAX_TOOL_PAGES };
  if (protocolEra === "2026-07-28") return new Client(CLIENT_INFO, { ...base, versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs } } });
  if (protocolEra === "2025-11-25") return new Client(CLIENT_INFO, { ...base, versionNegotiation: { mode: "legacy" }, supportedProtocolVersions: ["2025-11-25"] });
  if (transport === "sse" || lane === "legacy" || fellBack) return new Client(CLIENT_INFO, { ...base, versionNegotiation: { mode: "legacy" } });
  return new Client(CLIENT_INFO, { ...base, versionNegotiation: { mode: "auto", probe: { timeoutMs } } });
}

/** The upstream's transport, sending its secret headers on every request (the SSE stream's GET included). */
export function createUpstreamTransport(upstream: McpUpstream, signal?: AbortSignal): UpstreamTransport {
  // The token owns Authorization: a secret header of that name is not sent beside it.
  const headers = upstream.authProvider ? withoutAuthorization(upstream.headers) : upstream.headers;
  const requestInit = { headers, signal };
  const authProvider = upstream.authProvider;
  if (upstream.transport === "sse") return new SSEClientTransport(new URL(upstream.url), { requestInit, authProvider });
  return new StreamableHTTPClientTransport(new URL(upstream.url), { requestInit, authProvider });
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization"));
}

/** Ends the session (Streamable HTTP only: HTTP+SSE has none to end) and closes, each bounded to 1 s. */
export async function closeUpstream(client: Client, transport: UpstreamTransport): Promise<void> {
  const bounded = <T>(p: Promise<T>) => Promise.race([p, new Promise((r) => setTimeout(r, 1000).unref())]).catch(() => undefined);
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) await bounded(transport.terminateSession());
  await bounded(client.close());
}
