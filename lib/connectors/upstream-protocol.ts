/**
 * The choices of an `mcp` connector's upstream connection (issue 12 "Per connector: the
 * protocol era (auto — today's probe —, pinned 2025-11-25, pinned 2026-07-28) … the legacy
 * HTTP+SSE transport (2024-11-05) besides Streamable HTTP"). Free of the SDK, so the browser's
 * forms check the same values.
 */

/** `auto`: probe `server/discover`, fall back to `initialize`; a revision: exactly that one. */
export const PROTOCOL_ERAS = ["auto", "2025-11-25", "2026-07-28"] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];

/** `sse` is the legacy HTTP+SSE transport (protocol revision 2024-11-05). */
export const UPSTREAM_TRANSPORTS = ["streamable-http", "sse"] as const;
export type UpstreamTransportKind = (typeof UPSTREAM_TRANSPORTS)[number];

/** Whether a connector's era and transport go together: HTTP+SSE has no 2026-07-28 era. */
export function eraFitsTransport(era: ProtocolEra, transport: UpstreamTransportKind): boolean {
  return !(transport === "sse" && era === "2026-07-28");
}
