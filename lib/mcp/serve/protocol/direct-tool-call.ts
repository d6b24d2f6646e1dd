import { isJsonContentType, Server, specTypeSchemas, type AuthInfo, type CallToolResult, type JSONRPCMessage, type RequestId, type ServerContext } from "@modelcontextprotocol/server";
import { KEEP_ALIVE_COMMENT, KEEP_ALIVE_MS, sseSinkOf, type NodeSseSink } from "@/lib/mcp/serve/node-adapter/node-sse-sink";
import { restoreResourceNotFound } from "@/lib/mcp/serve/protocol/legacy-transport";
import { sseFrame } from "@/lib/mcp/serve/protocol/serialise-message";
import { answerToolCall, INVALID_PARAMS } from "@/lib/mcp/serve/protocol/answer-tool-call";
import { askStatelessClient, listenForAnswers } from "@/lib/mcp/serve/connection-state/ask-stateless-client";
import { CALL_SCOPE, type LegacyCaller } from "@/lib/mcp/serve/protocol/serve-tool-call";
import type { ToolSet } from "@/lib/mcp/surface/surface-types";
import { processState } from "@/lib/process-state";
import { AssumedVersionsMovedError, confirmAssumed, type AssumedVersions } from "@/lib/config-version/read-current-version";
import { CallCancelledError } from "@/lib/connectors/pipeline/audit-call";

/**
 * A stateless 2025-era tools/call answered without the SDK's per-request Server and transport
 * (issue 22 point 4): in bench:mcp those two — built, connected, validated through, closed for
 * every POST — were the largest part of a call's CPU after the call itself. What they do for
 * one plain tools/call is done here, and nothing else is taken: the POST must carry exactly
 * one request `{ jsonrpc, id, method: "tools/call", params: { name, arguments?, _meta? } }`
 * with values the SDK's own request check accepts, headers its transport accepts, and a
 * credential (so a call can ask its client for input). Anything else — a batch, an unusual
 * field, a header the transport refuses — goes to the SDK as before, which answers it,
 * refusals included, with its own words.
 *
 * The answer is the SDK's, byte for byte (tests/integration/mcp-direct-tool-call.test.ts
 * compares the two paths): an SSE stream of `event: message` frames on a 200 with the
 * transport's headers; progress, log messages and input requests on it before the result;
 * the result projected and checked for the 2025 wire by the SDK's own codec (as its Server
 * does); a thrown error as the SDK encodes it; resource-not-found with its
 * 2025 code (legacy-transport.ts).
 */

/** One tools/call the direct path serves. */
export interface DirectToolCall {
  id: RequestId;
  name: string;
  args: Record<string, unknown>;
  meta?: { progressToken: string | number };
}

/** Why a call's request signal ends once it is answered (one reason for all: no DOMException per call). */
const ANSWERED = new Error("the call was answered");

/** The headers of the SDK transport's SSE answer. */
const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" };
const INTERNAL_ERROR = -32603;
/** The SDK's 2025 codec writes the 2026 resource-not-found code as Invalid params (legacy-transport.ts restores it). */
const RESOURCE_NOT_FOUND_2026 = -32002;

const globalForDirect = processState<{ switchboardDirectToolCalls?: { served: number } }>();
const counts = (globalForDirect.switchboardDirectToolCalls ??= { served: 0 });

/** How many tools/call this process has answered on the direct path (tests: which path answered). */
export function toolCallsServedDirectly(): number {
  return counts.served;
}

/** A fresh Server is on the 2025 wire until initialized: its codec projects and checks a 2025-era tools/call result. */
let legacyCodec: Server | undefined;
function legacyCodecServer(): Server {
  return (legacyCodec ??= new Server({ name: "switchboard", version: "0" }, { capabilities: { tools: {} } }));
}

function projectFor2025(result: CallToolResult, schema?: Readonly<Record<string, unknown>>): CallToolResult {
  return legacyCodecServer().projectCallToolResult(result, schema);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasOnly(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

/** A request id the SDK's JSON-RPC schema takes: a string or an integer. */
function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

/**
 * The tools/call `message` carries when the direct path serves it; null sends the POST to the
 * SDK. `request` is checked as the SDK transport checks it (Accept, Content-Type).
 */
export function directToolCallOf(request: Request, message: unknown): DirectToolCall | null {
  if (!isPlainObject(message) || message.method !== "tools/call" || message.jsonrpc !== "2.0" || !isRequestId(message.id)) return null;
  if (!hasOnly(message, ["jsonrpc", "id", "method", "params"])) return null;
  const { params } = message;
  if (!isPlainObject(params) || typeof params.name !== "string" || !hasOnly(params, ["name", "arguments", "_meta"])) return null;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return null;
  const meta = params._meta;
  if (meta !== undefined && !(isPlainObject(meta) && hasOnly(meta, ["progressToken"]) && isRequestId(meta.progressToken))) return null;
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return null;
  if (!isJsonContentType(request.headers.get("content-type"))) return null;
  return { id: message.id, name: params.name, args: (params.arguments as Record<string, unknown> | undefined) ?? {}, ...(meta ? { meta: meta as DirectToolCall["meta"] } : {}) };
}

/** Where the answer's frames go: the node:http response itself (node-sse-sink.ts), or a web stream. */
interface AnswerStream {
  write(message: JSONRPCMessage): void;
  /** The answer: its frame, then the end of the stream. */
  answer(message: JSONRPCMessage): void;
  /** Ends the stream without an answer (the client went away). */
  end(): void;
  response: Response;
}

function sinkStream(sink: NodeSseSink, id: RequestId): AnswerStream {
  sink.adopted = true;
  return {
    write: (message) => sink.write(sseFrame(message)),
    answer(message) {
      sink.write(sseFrame(message));
      sink.answered(id);
    },
    end: () => sink.end(),
    response: new Response(null, { status: 200, headers: SSE_HEADERS }),
  };
}

function webStream(): AnswerStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const keepAlive = setInterval(() => open && controller.enqueue(KEEP_ALIVE_COMMENT), KEEP_ALIVE_MS);
  keepAlive.unref();
  const close = () => {
    open = false;
    clearInterval(keepAlive);
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: close,
  });
  const write = (message: JSONRPCMessage) => void (open && controller.enqueue(sseFrame(message)));
  return {
    write,
    answer(message) {
      write(message);
      if (open) controller.close();
      close();
    },
    end() {
      if (open) controller.close();
      close();
    },
    response: new Response(body, { status: 200, headers: SSE_HEADERS }),
  };
}

/** What a thrown error becomes on the wire, as the SDK's protocol layer encodes it. */
function errorAnswer(id: RequestId, error: unknown): JSONRPCMessage {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(e.code) ? (e.code as number) : INTERNAL_ERROR;
  const message = { jsonrpc: "2.0" as const, id, error: { code: code === RESOURCE_NOT_FOUND_2026 ? INVALID_PARAMS : code, message: (e.message as string | undefined) ?? "Internal error", ...(e.data !== undefined ? { data: e.data } : {}) } };
  return restoreResourceNotFound(message);
}

/** The SDK's check of a result on the 2025 wire: its codec's, where the Server exposes it. */
type ValidateResult = (method: string, raw: unknown) => { ok: true; value: unknown } | { ok: false; reason: string; message?: string };

/**
 * The SDK's last word on a tools/call result, as its Server has it: content defaults to [],
 * then the 2025 wire's result schema (whose parse is what is sent: unknown fields of a content
 * block are dropped, as the SDK drops them). The codec is the SDK's internal one; if a later
 * SDK hides it, the protocol's published schema is used instead.
 */
export function checkedToolCallResult(result: Record<string, unknown>): unknown {
  const normalised = result.content === undefined && !("task" in result) && !("inputRequests" in result) && !("requestState" in result) ? { ...result, content: [] } : result;
  const codec = (legacyCodecServer() as unknown as { _wireCodec?: () => { validateResult?: ValidateResult } })._wireCodec?.();
  if (codec?.validateResult) {
    const checked = codec.validateResult("tools/call", normalised);
    if (checked.ok) return checked.value;
    throw Object.assign(new Error(checked.reason === "invalid" ? `Invalid tools/call result: ${checked.message}` : "No wire schema for tools/call in the resolved era"), { code: checked.reason === "invalid" ? INVALID_PARAMS : INTERNAL_ERROR });
  }
  const checked = specTypeSchemas.CallToolResult["~standard"].validate(normalised);
  if (checked.issues) throw Object.assign(new Error(`Invalid tools/call result: ${JSON.stringify(checked.issues, null, 2)}`), { code: INVALID_PARAMS });
  return checked.value;
}

/**
 * Serves `call` and returns the answer's Response as soon as it is known to be this request's
 * (its stream carries what the call sends and then its result). `identity` and `scope` are the
 * credential and endpoint a later notifications/cancelled or a client's answer finds the call by
 * (cancel-running-calls.ts, ask-stateless-client.ts).
 *
 * `assumed`: configuration versions the request assumed instead of reading them
 * (lib/config-version/read-current-version.ts). The Response then waits until the call's audit
 * row went in under them; a call that ends before that (a tool this caller does not have,
 * arguments refused) is answered only once they are read again and found current. Null: one had
 * moved, nothing was sent anywhere — the request is to be served again with versions read.
 */
export async function serveToolCallDirectly(request: Request, message: unknown, call: DirectToolCall, tools: () => ToolSet, identity: string, scope: string | undefined, assumed?: AssumedVersions): Promise<Response | null> {
  listenForAnswers();
  // Opened once the call is known to be this request's answer: nothing is sent before its audit row.
  const out: { stream?: AnswerStream } = {};
  const send = async (m: JSONRPCMessage) => out.stream?.write(m);
  let confirmed = !assumed?.assumed.size;
  let onConfirmed!: () => void;
  const confirmation = new Promise<void>((resolve) => (onConfirmed = resolve));
  const legacy: LegacyCaller = {
    clientCapabilities: undefined,
    logLevel: undefined,
    askClient: (related, input, signal) => askStatelessClient(send, related, identity, input, signal),
    ...(confirmed ? {} : { versions: { assumed: assumed!.assumed, confirmed: () => ((confirmed = true), onConfirmed()) } }),
  };
  // Aborted once the call is answered, as the SDK's request signal is when its server closes:
  // what the call left open (an input request still unanswered) ends with it.
  const served = new AbortController();
  /** Cancelled while its row waited (CallCancelledError): not served again. */
  let cancelled = false;
  const answer = answerToolCall(tools, call.name, call.args, callContext(request, call, served.signal, identity, scope, send), legacy, projectFor2025)
    .then((result) => ({ result: checkedToolCallResult(result as Record<string, unknown>), jsonrpc: "2.0", id: call.id }) as JSONRPCMessage)
    .catch((e: unknown) => {
      cancelled = e instanceof CallCancelledError;
      return e instanceof AssumedVersionsMovedError ? e : errorAnswer(call.id, e);
    });
  if (!confirmed) {
    await Promise.race([confirmation, answer]);
    if (!confirmed) {
      // Ended before its audit row went in: answered on assumed versions, or they had moved
      // (cancelled meanwhile: answered as it is, nothing to serve again).
      const ended = await answer;
      if (ended instanceof AssumedVersionsMovedError || (!cancelled && !(await confirmAssumed(assumed!)))) return null;
    }
  }
  counts.served++;
  const sink = sseSinkOf(request, message);
  const opened = sink ? sinkStream(sink, call.id) : webStream();
  out.stream = opened;
  void answer.then((ended) => {
    // The client went away: nobody reads the answer (the SDK drops it too).
    if (!request.signal.aborted && !(ended instanceof AssumedVersionsMovedError)) opened.answer(ended);
    else opened.end();
    served.abort(ANSWERED);
  });
  return opened.response;
}

/** What the SDK's Server would give a tools/call handler, for the parts a call in flight reads (serve-tool-call.ts). */
function callContext(request: Request, call: DirectToolCall, signal: AbortSignal, identity: string, scope: string | undefined, send: (m: JSONRPCMessage) => Promise<void>): ServerContext {
  const authInfo: AuthInfo = { token: "", clientId: identity, scopes: [], ...(scope === undefined ? {} : { extra: { [CALL_SCOPE]: scope } }) };
  return {
    mcpReq: {
      id: call.id,
      method: "tools/call",
      _meta: call.meta,
      signal,
      requestState: () => undefined,
      notify: (n: { method: string; params?: unknown }) => send({ jsonrpc: "2.0", ...n } as JSONRPCMessage),
      send: () => Promise.reject(new Error("a stateless call asks its client through askClient")),
    },
    http: { req: request, authInfo },
  } as unknown as ServerContext;
}
