import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { HOST_RESOURCES_EXTENSION } from "@/packages/host-resources/src/protocol";
import type { HostResourcesClaim } from "@/lib/host-resources/capability";

/**
 * What the host changes in the messages an `mcp` connector's outbound connection sends, on
 * any transport (Streamable HTTP or the legacy HTTP+SSE), to do two things the SDK Client
 * cannot be told to do:
 *
 * - claim `capabilities.extensions["ai.nimblebrain/host-resources"]` in `initialize` only.
 *   `initialize` exists only on the 2025-era path, so a 2026-07-28 connection (negotiated by
 *   `server/discover`) never carries the claim (seed 000 "Which connections can use it"). The
 *   object is mirrored under `experimental` for v1 servers (1.22–1.27) that drop unknown keys.
 * - restore the error code and data our host-resources handlers threw. The SDK rewrites
 *   -32002 to -32602 on every era, but seed 000 answers a missing file with -32002 { uri }.
 */

type RequestId = string | number;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** The outbound side of one connection, as the request handlers need it. */
export interface HostResourcesWire {
  /** Makes the error response to request `id` carry exactly this code, message and data. */
  rememberError(id: RequestId, error: WireError): void;
}

/** Routes every message `transport` sends through the claim and the error restoration. */
export function rewriteOutbound(transport: Transport, claim: HostResourcesClaim): HostResourcesWire {
  /** Errors our handlers threw, by the id of the upstream request they answer. */
  const thrownErrors = new Map<RequestId, WireError>();
  const rewrite = (message: JSONRPCMessage): JSONRPCMessage => {
    if ("method" in message && message.method === "initialize" && "id" in message) return withClaim(message, claim);
    if ("error" in message && message.id !== undefined && message.id !== null) {
      const original = thrownErrors.get(message.id);
      if (original) {
        thrownErrors.delete(message.id);
        const error = original.data === undefined ? { code: original.code, message: original.message } : original;
        return { ...message, error } as JSONRPCMessage;
      }
    }
    if ("result" in message && message.id !== undefined) thrownErrors.delete(message.id);
    return message;
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const batch = message as JSONRPCMessage | JSONRPCMessage[];
    const rewritten = Array.isArray(batch) ? batch.map(rewrite) : rewrite(batch);
    return send(rewritten as JSONRPCMessage, options);
  };
  return { rememberError: (id, error) => void thrownErrors.set(id, error) };
}

/** The initialize request with the extension claimed under `extensions` and `experimental`. */
function withClaim(message: JSONRPCMessage, claim: HostResourcesClaim): JSONRPCMessage {
  const params = ("params" in message && message.params ? message.params : {}) as Record<string, unknown>;
  const capabilities = (params.capabilities ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return {
    ...message,
    params: {
      ...params,
      capabilities: {
        ...capabilities,
        extensions: { ...capabilities.extensions, [HOST_RESOURCES_EXTENSION]: structuredClone(claim) },
        experimental: { ...capabilities.experimental, [HOST_RESOURCES_EXTENSION]: structuredClone(claim) },
      },
    },
  } as JSONRPCMessage;
}
