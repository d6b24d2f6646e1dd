import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/server";
import type { NodeSseSink } from "@/lib/mcp/serve/node-adapter/node-sse-sink";
import { sseFrame } from "@/lib/mcp/serve/protocol/serialise-message";

type SseWriter = (controller: ReadableStreamDefaultController<Uint8Array>, encoder: TextEncoder, message: JSONRPCMessage, eventId?: string) => boolean;

/** The 2025-era code for "resource not found" (seed 004; the SDK emits -32602 on every era). */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

/**
 * A 2025-era Streamable HTTP transport that puts resource-not-found on the wire as -32002
 * with `data: { uri }`, as the seed requires on 2025-era connections. The SDK encodes that
 * error as -32602 `{ uri }` on both eras; it is recognisable by its data being exactly
 * `{ uri }` (the SDK's own definition), so the code is restored here, just before sending.
 */
export class LegacyHttpTransport extends WebStandardStreamableHTTPServerTransport {
  /**
   * `sink`: the node:http response's own stream (lib/mcp/serve/node-adapter/node-sse-sink.ts), which then
   * gets the frames (and keeps the connection alive) instead of the SDK's web stream.
   */
  constructor(
    options?: WebStandardStreamableHTTPServerTransportOptions,
    private readonly sink?: NodeSseSink,
  ) {
    super(sink ? { ...options, keepAliveMs: 0 } : options);
    // The SDK's SSE frame (`event: message`, an optional `id:`, `data: <JSON>`), with a
    // published tool list copied in from its bytes instead of serialised again
    // (lib/mcp/serve/protocol/serialise-message.ts). The SDK declares the method private; it is the one
    // place its answers are serialised on this transport.
    const self = this as unknown as { writeSSEEvent: SseWriter; onerror?: (e: Error) => void };
    self.writeSSEEvent = (controller, _encoder, message, eventId) => {
      try {
        const frame = sseFrame(message, eventId);
        if (this.sink) this.sink.write(frame);
        else controller.enqueue(frame);
        return true;
      } catch (error) {
        self.onerror?.(error as Error);
        return false;
      }
    };
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await super.send(restoreResourceNotFound(message), options);
    if (this.sink && isAnswer(message)) this.sink.answered(message.id);
  }

  override async close(): Promise<void> {
    await super.close();
    this.sink?.end();
  }
}

export function restoreResourceNotFound(message: JSONRPCMessage): JSONRPCMessage {
  // The code first: every answer passes here, and the schema check is a zod parse.
  if ((message as { error?: { code?: unknown } }).error?.code !== INVALID_PARAMS || !isJSONRPCErrorResponse(message)) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  const onlyUri = !!data && typeof data === "object" && typeof data.uri === "string" && Object.keys(data).length === 1;
  return onlyUri ? { ...message, error: { ...message.error, code: LEGACY_RESOURCE_NOT_FOUND } } : message;
}

/** A result or error answer: told apart by its members first, then by the SDK's (zod) guards. */
function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  if (!("result" in message) && !("error" in message)) return false;
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}
