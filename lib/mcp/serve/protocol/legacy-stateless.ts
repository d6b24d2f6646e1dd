import { buildServer, type ServerParts } from "@/lib/mcp/serve/protocol/build-server";
import { LegacyHttpTransport } from "@/lib/mcp/serve/protocol/legacy-transport";
import { sseSinkOf } from "@/lib/mcp/serve/node-adapter/node-sse-sink";
import { jsonRpcErrorResponse, TRANSPORT_ERROR } from "@/lib/mcp/serve/http-edge/responses";
import { askStatelessClient, listenForAnswers, type SendOnStream } from "@/lib/mcp/serve/connection-state/ask-stateless-client";
import { CALL_SCOPE, type AskClient } from "@/lib/mcp/serve/protocol/serve-tool-call";

/**
 * 2025-era traffic without sessions: each POST is answered by a fresh Server on a fresh
 * transport (the SDK's stateless idiom, on our transport so resource-not-found keeps its
 * 2025 code; a plain tools/call is answered the same way without them, direct-tool-call.ts,
 * chosen by the edge). GET and DELETE are session operations: 405, as in the SDK's stateless mode.
 */
/**
 * `message` is the request's body already parsed (undefined: the transport reads it); `identity`
 * the credential and `scope` the endpoint (lib/mcp/serve/connection-state/cancel-running-calls.ts), which reach handlers as auth
 * info so a later notifications/cancelled finds the call by them.
 */
export async function serveLegacyStateless(request: Request, parts: ServerParts, maxBodyBytes: number, message?: unknown, identity?: string, scope?: string): Promise<Response> {
  if (request.method !== "POST") {
    return jsonRpcErrorResponse(405, TRANSPORT_ERROR, "Method not allowed.", { headers: { allow: "POST" } });
  }
  listenForAnswers();
  // Through the instance's own server, a parsed POST's event stream goes straight to its socket.
  const sink = message === undefined ? undefined : sseSinkOf(request, message);
  const transport = new LegacyHttpTransport({ sessionIdGenerator: undefined, maxRequestBodySize: maxBodyBytes }, sink);
  // A call asks its client on this POST's own answer stream; the answer may reach any instance.
  const send: SendOnStream = (m, relatedRequestId) => transport.send(m, { relatedRequestId });
  const askClient: AskClient | undefined = identity ? (related, input, signal) => askStatelessClient(send, related, identity, input, signal) : undefined;
  const server = buildServer({ ...parts, ...(askClient ? { askClient } : {}) });
  await server.connect(transport);
  let closed = false;
  const teardown = () => {
    if (closed) return;
    closed = true;
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  };
  request.signal?.addEventListener("abort", teardown, { once: true });
  try {
    const authInfo = identity ? { token: "", clientId: identity, scopes: [], ...(scope === undefined ? {} : { extra: { [CALL_SCOPE]: scope } }) } : undefined;
    const options = { ...(message === undefined ? {} : { parsedBody: message }), ...(authInfo ? { authInfo } : {}) };
    const response = await transport.handleRequest(request, options);
    if (!sink || !isEventStream(response)) return closeWhenBodyEnds(response, teardown);
    sink.adopted = true;
    sink.whenEnded(teardown);
    return response;
  } catch (e) {
    teardown();
    throw e;
  }
}

function isEventStream(response: Response): boolean {
  return !!response.body && !!response.headers.get("content-type")?.startsWith("text/event-stream");
}

/**
 * Runs `done` once the response has been fully sent (or abandoned). A JSON answer is complete
 * at once; an SSE answer only when its stream ends, and the server must live until then.
 */
export function closeWhenBodyEnds(response: Response, done: () => void): Response {
  if (!response.body || !isEventStream(response)) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        done();
        controller.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
