import { StreamableHTTPClientTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { HOST_RESOURCES_CAPABILITY_ID, type HostResourcesCapability } from "@/lib/host-resources/capability";

/**
 * The outbound Streamable HTTP transport of an `mcp` connector. It does two things the SDK
 * Client cannot be told to do:
 *
 * - claims `capabilities.extensions["ai.nimblebrain/host-resources"]` in `initialize` only.
 *   `initialize` exists only on the 2025-era path, so a 2026-07-28 connection (negotiated by
 *   `server/discover`) never carries the claim (seed 000 "Which connections can use it"). The
 *   object is mirrored under `experimental` for v1 servers (1.22–1.27) that drop unknown keys.
 * - restores the error code and data our host-resources handlers threw. The SDK rewrites
 *   -32002 to -32602 on every era, but seed 000 answers a missing file with -32002 { uri }.
 */

type Ctor = ConstructorParameters<typeof StreamableHTTPClientTransport>;
type SendOptions = Parameters<StreamableHTTPClientTransport["send"]>[1];
type RequestId = string | number;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

export class HostResourcesClientTransport extends StreamableHTTPClientTransport {
  /** Errors our handlers threw, by the id of the upstream request they answer. */
  private readonly thrownErrors = new Map<RequestId, WireError>();

  /** `claim`: the capability object of the operations this connection serves; null claims nothing. */
  constructor(url: Ctor[0], opts: Ctor[1], private readonly claim: HostResourcesCapability | null) {
    super(url, opts);
  }

  /** Makes the error response to request `id` carry exactly this code, message and data. */
  rememberError(id: RequestId, error: WireError): void {
    this.thrownErrors.set(id, error);
  }

  override send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const rewritten = Array.isArray(message) ? message.map((m) => this.rewrite(m)) : this.rewrite(message);
    return super.send(rewritten, options);
  }

  private rewrite(message: JSONRPCMessage): JSONRPCMessage {
    if ("method" in message && message.method === "initialize" && "id" in message && this.claim) return withClaim(message, this.claim);
    if ("error" in message && message.id !== undefined && message.id !== null) {
      const original = this.thrownErrors.get(message.id);
      if (original) {
        this.thrownErrors.delete(message.id);
        const error = original.data === undefined ? { code: original.code, message: original.message } : original;
        return { ...message, error } as JSONRPCMessage;
      }
    }
    if ("result" in message && message.id !== undefined) this.thrownErrors.delete(message.id);
    return message;
  }
}

/** The initialize request with the extension claimed under `extensions` and `experimental`. */
function withClaim(message: JSONRPCMessage, claim: HostResourcesCapability): JSONRPCMessage {
  const params = ("params" in message && message.params ? message.params : {}) as Record<string, unknown>;
  const capabilities = (params.capabilities ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return {
    ...message,
    params: {
      ...params,
      capabilities: {
        ...capabilities,
        extensions: { ...capabilities.extensions, [HOST_RESOURCES_CAPABILITY_ID]: structuredClone(claim) },
        experimental: { ...capabilities.experimental, [HOST_RESOURCES_CAPABILITY_ID]: structuredClone(claim) },
      },
    },
  } as JSONRPCMessage;
}
