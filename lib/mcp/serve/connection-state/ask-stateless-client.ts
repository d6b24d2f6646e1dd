import { randomUUID } from "node:crypto";
import { isJSONRPCErrorResponse, isJSONRPCResultResponse, ProtocolError, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/server";
import type { InputRequest } from "@/lib/connectors/runtime/call-flight";
import { setting } from "@/lib/config/settings";
import { publish, subscribe } from "@/lib/redis/pubsub";
import { processState } from "@/lib/process-state";

/**
 * Server-to-client requests for stateless 2025-era serving (issue 12 point 4). A sessionless
 * POST still has its own SSE answer stream, and the 2025-11-25 transport lets a server send
 * "requests … related to the originating client request" on it before the result; the client
 * answers by POSTing a JSON-RPC response carrying the request's id — with no session, to any
 * instance. So the request gets an id minted here (unguessable, unlike the SDK's counter,
 * which every fresh per-request server starts at 0), the ask waits under it in this process,
 * and the answer POST finds it here, or on another instance through Redis pub/sub.
 *
 * An answer is taken only from the credential the call runs under; another credential's,
 * an unknown or an expired id are ignored and answered 202 all the same — what the SDK's
 * transport answers a response it cannot match.
 */

const PREFIX = "sbask_";
const CHANNEL = "mcp-client-answer";

interface PendingAsk {
  identity: string;
  settle(message: JSONRPCMessage): void;
}

const globalForAsks = processState<{ switchboardStatelessAsks?: { pending: Map<string, PendingAsk>; listening: boolean } }>();
const asks = (globalForAsks.switchboardStatelessAsks ??= { pending: new Map(), listening: false });

/** How an ask reaches the client: a JSON-RPC message on the calling request's answer stream. */
export type SendOnStream = (message: JSONRPCMessage, relatedRequestId: RequestId) => Promise<void>;

/** Asks open on this instance (tests: none is left once every call is over). */
export function openStatelessAsks(): number {
  return asks.pending.size;
}

/**
 * Sends `request` to the client on the stream of the request `relatedRequestId` and resolves
 * with its answer's result; rejects with the client's JSON-RPC error, when `signal` aborts
 * (the client cancelled, the upstream gave up), or after UPSTREAM_CALL_TIMEOUT_MS.
 */
export function askStatelessClient(send: SendOnStream, relatedRequestId: RequestId, identity: string, request: InputRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
  listenForAnswers();
  const id = `${PREFIX}${randomUUID()}`;
  return new Promise((resolve, reject) => {
    const done = () => {
      asks.pending.delete(id);
      clearTimeout(expiry);
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      // Tells the client to stop working on it (it may still be asking its user). A fixed
      // reason: the abort's own may be the upstream's free text, which can quote its credentials.
      void send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "the call was cancelled" } }, relatedRequestId).catch(() => undefined);
      reject(signal.reason);
    };
    const expiry = setTimeout(() => {
      done();
      reject(new ProtocolError(-32001, `The client did not answer ${request.method} in time`));
    }, setting("UPSTREAM_CALL_TIMEOUT_MS"));
    expiry.unref();
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    asks.pending.set(id, {
      identity,
      settle: (message) => {
        done();
        if (isJSONRPCErrorResponse(message)) reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
        else resolve((message as { result: Record<string, unknown> }).result);
      },
    });
    send({ jsonrpc: "2.0", id, method: request.method, params: request.params ?? {} } as JSONRPCMessage, relatedRequestId).catch((e: unknown) => {
      done();
      reject(e);
    });
  });
}

/** Whether `message` is a client's answer to an ask of this module (by its id's form). */
export function isStatelessAnswer(message: unknown): message is JSONRPCMessage {
  const m = message as JSONRPCMessage;
  // The id first: every POST is asked this, and the schema checks are zod parses (~1 % of a tools/call's CPU).
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.startsWith(PREFIX) && (isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m));
}

/** Delivers an answer POSTed by `identity` to its ask, here or on the instance holding it. */
export async function deliverStatelessAnswer(identity: string, message: JSONRPCMessage): Promise<void> {
  if (settleHere(identity, message)) return;
  await publish(CHANNEL, JSON.stringify({ identity, message }));
}

function settleHere(identity: string, message: JSONRPCMessage): boolean {
  const id = (message as { id?: unknown }).id;
  const ask = typeof id === "string" ? asks.pending.get(id) : undefined;
  if (!ask || ask.identity !== identity) return false;
  ask.settle(message);
  return true;
}

/**
 * Subscribes this instance to answers landing elsewhere (once). Called by every stateless
 * POST, so the subscription is in place well before this instance first asks (the initialize
 * and list requests come first), not raced by the first answer.
 */
export function listenForAnswers(): void {
  if (asks.listening) return;
  asks.listening = true;
  subscribe(CHANNEL, (raw) => {
    try {
      const { identity, message } = JSON.parse(raw) as { identity?: unknown; message?: unknown };
      if (typeof identity === "string" && isStatelessAnswer(message)) settleHere(identity, message);
    } catch {
      // Not ours to read: ignored, as every unmatched answer is.
    }
  });
}
