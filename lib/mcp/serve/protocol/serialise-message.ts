import { randomUUID } from "node:crypto";
import { isJSONRPCResultResponse, type JSONRPCMessage, type Transport, type TransportSendOptions } from "@modelcontextprotocol/server";
import { serialisedList } from "@/lib/mcp/surface/surface-types";

/**
 * tools/list answers written from the published list's bytes (made once per published
 * surface, lib/mcp/surface/surface-types.ts): the message around the list (id, resultType,
 * _meta…) is serialised per request, the list itself is copied in. In the tools/list profile
 * of bench:mcp, serialising the 0.9 MB list (JSON.stringify, then UTF-8) was two thirds of the
 * request's CPU on both protocol eras. The bytes are exactly those JSON.stringify gives: the
 * SDK passes the handler's array through unchanged, so the list is found by identity, and any
 * other array (one the SDK rewrote, a list never published) is serialised as usual.
 */

/** Stands for the list in the envelope's JSON: a string no answer holds otherwise. */
const PLACEHOLDER = `\u0000switchboard-list-${randomUUID()}`;
const QUOTED = JSON.stringify(PLACEHOLDER);

/** One SSE frame of a JSON-RPC message, as the SDK's transport writes it (`event: message`, an optional `id:`, `data: <JSON>`). */
export function sseFrame(message: unknown, eventId?: string): Buffer {
  return serialiseMessage(message, `event: message\n${eventId ? `id: ${eventId}\n` : ""}data: `, "\n\n");
}

/** The UTF-8 bytes of `prefix + JSON.stringify(message) + suffix`. */
export function serialiseMessage(message: unknown, prefix = "", suffix = ""): Buffer {
  const tools = (message as { result?: { tools?: unknown } } | null)?.result?.tools;
  const bytes = tools && typeof tools === "object" ? serialisedList(tools) : undefined;
  if (!bytes) return Buffer.from(prefix + JSON.stringify(message) + suffix);
  const envelope = JSON.stringify(message, (_key, value: unknown) => (value === tools ? PLACEHOLDER : value));
  const at = envelope.indexOf(QUOTED);
  return Buffer.concat([Buffer.from(prefix + envelope.slice(0, at)), bytes, Buffer.from(envelope.slice(at + QUOTED.length) + suffix)]);
}

/** The fields of the SDK's per-request (2026-era) transport its JSON answer is settled with. */
interface PerRequestInternals {
  send: (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;
  settleResponse?: (response: Response) => void;
  close: () => Promise<void>;
  _requestId?: unknown;
  _terminalDelivered?: boolean;
  _closed?: boolean;
  _sse?: unknown;
  _responseMode?: string;
}

/**
 * Makes a 2026-era per-request transport write a tools/list answer carrying a published list
 * from its bytes. The SDK's own send answers a terminal result with `Response.json(message)`
 * (status 200, Content-Type application/json) when the exchange is not streaming, then closes;
 * this does the same with the bytes of serialiseMessage, and leaves every other message —
 * and any transport that does not look like that one — to the SDK.
 */
export function writePublishedListsFrom<T extends Transport>(transport: T): T {
  const t = transport as unknown as PerRequestInternals;
  if (typeof t.settleResponse !== "function" || !("_terminalDelivered" in t) || !("_responseMode" in t)) return transport;
  const send = t.send.bind(transport);
  t.send = async (message, options) => {
    const tools = isJSONRPCResultResponse(message) ? (message.result as { tools?: unknown }).tools : undefined;
    const plain = !t._closed && !t._terminalDelivered && t._sse === undefined && t._responseMode !== "sse" && message && (message as { id?: unknown }).id === t._requestId;
    if (!plain || !tools || typeof tools !== "object" || !serialisedList(tools)) return send(message, options);
    t._terminalDelivered = true;
    t.settleResponse!(new Response(new Uint8Array(serialiseMessage(message)), { status: 200, headers: { "Content-Type": "application/json" } }));
    queueMicrotask(() => void t.close());
  };
  return transport;
}
