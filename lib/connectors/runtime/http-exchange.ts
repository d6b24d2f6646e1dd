import http from "node:http";
import https from "node:https";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import { processState } from "@/lib/process-state";

/**
 * One HTTP request of an http tool on node:http(s), over keep-alive agents of this process.
 * Not the global `fetch`: inside the Next.js server that is Next's patched fetch, which wraps
 * every call in a tracing span and its cache logic, and under it undici's WHATWG streams and
 * signals — together about a fifth of a tools/call's CPU in the profile of bench:mcp
 * (bench/README.md), for a request whose answer we read into one buffer anyway.
 */

export interface ExchangeRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  signal: AbortSignal;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The answer's bytes, decoded when the server compressed them; read it or `discard()`. */
  body: Readable;
  /** Drops the answer (a redirect's, one too large), keeping the connection when it can. */
  discard(): void;
}

const globalForAgents = processState<{ switchboardHttpToolAgents?: { http: http.Agent; https: https.Agent } }>();
const agents = (globalForAgents.switchboardHttpToolAgents ??= {
  http: new http.Agent({ keepAlive: true }),
  https: new https.Agent({ keepAlive: true }),
});

/** Methods a request may be repeated with: what is retried when a kept-alive connection was closed under it. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** Sends the request; rejects with the socket's error (ECONNREFUSED, a TLS failure) or an AbortError. */
export async function exchange(request: ExchangeRequest): Promise<ExchangeResponse> {
  try {
    return await send(request);
  } catch (e) {
    // A server may close an idle kept-alive connection just as we reuse it (Node's advice:
    // retry once on a fresh one when the request may be repeated).
    if ((e as { reusedSocket?: boolean }).reusedSocket && IDEMPOTENT.has(request.method) && !request.signal.aborted) return send(request);
    throw e;
  }
}

function send(request: ExchangeRequest): Promise<ExchangeResponse> {
  const { method, url, body, signal } = request;
  const secure = url.protocol === "https:";
  const headers: Record<string, string> = { ...request.headers };
  if (body !== null) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method, headers, agent: secure ? agents.https : agents.http, signal });
    req.once("error", (e) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
    req.once("response", (res) => {
      const body = decoded(res);
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? "",
        headers: res.headers,
        body,
        // A compressed answer drained would only fill its decoder: close it instead.
        discard: () => (body === res ? res.resume() : res.destroy()),
      });
    });
    req.end(body ?? undefined);
  });
}

/** What `fetch` did for us: an answer sent compressed (though we never ask for it) is decoded. */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder = encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip() : encoding === "deflate" ? zlib.createInflate() : encoding === "br" ? zlib.createBrotliDecompress() : null;
  if (!decoder) return res;
  // pipeline, not pipe: a decoder destroyed (answer too large) or failing (not decodable)
  // destroys the answer and its socket too, instead of leaving it checked out half-read.
  return pipeline(res, decoder, () => undefined);
}
