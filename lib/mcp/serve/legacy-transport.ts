import {
  isJSONRPCErrorResponse,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";

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
  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return super.send(restoreResourceNotFound(message), options);
  }
}

export function restoreResourceNotFound(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message) || message.error.code !== INVALID_PARAMS) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  const onlyUri = !!data && typeof data === "object" && typeof data.uri === "string" && Object.keys(data).length === 1;
  return onlyUri ? { ...message, error: { ...message.error, code: LEGACY_RESOURCE_NOT_FOUND } } : message;
}
