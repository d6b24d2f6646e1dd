import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { jsonRpcErrorResponse, jsonRpcIdOf } from "@/lib/mcp/serve/http-edge/responses";

/**
 * The protocol versions the MCP endpoints serve: 2026-07-28 and the 2025-era revisions (with
 * 2024-11-05, which the SDK still negotiates). 2024-10-07, a draft the SDK lists, is not one
 * of them: a client naming it, or any other, is told which versions it can use.
 */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== "2024-10-07")];

/** The 2025-era versions, as the SDK negotiates them on initialize (latest first). */
export const SERVED_LEGACY_VERSIONS: string[] = SERVED_PROTOCOL_VERSIONS.filter((v) => v !== "2026-07-28");

/** Batches were dropped from the protocol in this revision. */
const FIRST_VERSION_WITHOUT_BATCHES = "2025-06-18";
/** What a request without the header is taken to speak (the transport specification's default). */
const DEFAULT_VERSION = "2025-03-26";

const INVALID_REQUEST = -32600;

/**
 * A 400 naming the served versions for an MCP-Protocol-Version header that names another, or
 * null. A request that carries a 2026-07-28 envelope (`_meta` naming a protocol version) is
 * left to the 2026-era handler: it answers the UnsupportedProtocolVersionError (-32022) of that
 * revision, whose `supported` must be what server/discover lists and whose `requested` echoes
 * the version asked for ("the error data carries the supported versions and echoes the
 * requested version"), under the request's own id.
 */
export function refuseUnservedVersion(headers: Headers, message: unknown): Response | null {
  const version = headers.get("mcp-protocol-version");
  if (version === null || SERVED_PROTOCOL_VERSIONS.includes(version) || claimsEnvelope(message)) return null;
  return jsonRpcErrorResponse(400, INVALID_REQUEST, `Unsupported protocol version: ${version.slice(0, 40)}. This server speaks ${SERVED_PROTOCOL_VERSIONS.join(", ")}.`, {
    data: { supported: SERVED_PROTOCOL_VERSIONS, requested: version.slice(0, 40) },
    id: jsonRpcIdOf(message),
  });
}

/** Whether `message` is a request whose `_meta` names a protocol version (the 2026-07-28 envelope). */
function claimsEnvelope(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: unknown } } | null)?.params?._meta;
  return !!meta && typeof meta === "object" && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * A 400 for a JSON-RPC batch on a protocol version that has none (2025-06-18 and later), or
 * null. The version is the request's MCP-Protocol-Version header, else the one an initialize
 * inside the batch asks for, else the transport's default (2025-03-26, which had batches).
 */
export function refuseBatch(message: unknown, headers: Headers): Response | null {
  if (!Array.isArray(message)) return null;
  const version = headers.get("mcp-protocol-version") ?? initializeVersionIn(message) ?? DEFAULT_VERSION;
  if (version < FIRST_VERSION_WITHOUT_BATCHES) return null;
  return jsonRpcErrorResponse(400, INVALID_REQUEST, `JSON-RPC batches are not part of MCP ${version.slice(0, 40)}: send one message per request.`);
}

function initializeVersionIn(batch: unknown[]): string | null {
  for (const item of batch) {
    const message = item as { method?: unknown; params?: { protocolVersion?: unknown } } | null;
    if (message?.method === "initialize" && typeof message.params?.protocolVersion === "string") return message.params.protocolVersion;
  }
  return null;
}
