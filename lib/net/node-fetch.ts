import type http from "node:http";
import { processState } from "@/lib/process-state";

/**
 * node:http ⇄ fetch-style Request/Response, as Next.js adapts them for route handlers: used by
 * the MCP endpoints served in front of Next (lib/mcp/serve/node-adapter/serve-node.ts), and by tests and
 * scripts that serve the app's route handlers from a plain node:http server.
 */

const globalForBodies = processState<{ switchboardReadBodies?: WeakMap<Request, string> }>();
const readBodies = (globalForBodies.switchboardReadBodies ??= new WeakMap());

/**
 * The text of a request's body already read whole from the node request (toRequest's `body`),
 * so a handler can parse it without reading (or cloning) the Request's own stream; undefined
 * when it was not.
 */
export function readBodyTextOf(request: Request): string | undefined {
  return readBodies.get(request);
}

/**
 * node request → fetch Request; the signal aborts when the client disconnects. `body`: the
 * request's body, already read whole (readNodeBody), instead of a stream of it.
 */
export function toRequest(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body?: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.append(name, value);
    else if (value) for (const v of value) headers.append(name, v);
  }
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  if (body) {
    const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    const request = withSignal(new Request(url, { method: req.method, headers, body: bytes }), abort.signal);
    readBodies.set(request, body.toString("utf8"));
    return request;
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  let cancelled = false;
  const stream = hasBody
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          req.on("data", (chunk: Buffer) => {
            if (!cancelled) controller.enqueue(new Uint8Array(chunk));
          });
          req.on("end", () => cancelled || controller.close());
          req.on("error", (e) => cancelled || controller.error(e));
        },
        cancel() {
          // What the handler did not read is dropped as it arrives (node:http does the same).
          cancelled = true;
        },
      })
    : undefined;
  return withSignal(new Request(url, { method: req.method, headers, body: stream, duplex: "half" } as RequestInit), abort.signal);
}

/**
 * `request` with `signal` as its signal. Not through RequestInit: a Request made with a signal
 * follows it through a second AbortController, a weak reference, a finalizer and a listener,
 * which in the tools/call profile of bench:mcp cost more than the rest of the Request. These
 * Requests are only handed to handlers, never fetched, so their signal is only ever read.
 */
function withSignal(request: Request, signal: AbortSignal): Request {
  return Object.defineProperty(request, "signal", { value: signal, enumerable: true });
}

/** The whole body of a node request (null when the client went away first). */
export function readNodeBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", () => resolve(null));
    req.once("close", () => resolve(req.complete ? Buffer.concat(chunks) : null));
  });
}

/** Writes a fetch Response's status and headers as the node response's head. */
export function writeResponseHead(response: Response, res: http.ServerResponse): void {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
}

/** Streams a fetch Response into a node response; stops reading when the client leaves. */
export async function writeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  writeResponseHead(response, res);
  res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      // A slow reader must not make this process buffer the whole answer: wait for the socket.
      if (!res.write(part.value) && !res.destroyed) await drained(res);
    }
  } catch {
    // The client went away mid-stream; nothing left to send.
  }
  res.end();
}

/** Resolves once the response can take more bytes, or is gone. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
