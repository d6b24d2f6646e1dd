import type http from "node:http";

/**
 * node:http ⇄ fetch-style Request/Response, as Next.js adapts them for route handlers: used by
 * the MCP endpoints served in front of Next (lib/mcp/serve/serve-node.ts), and by tests and
 * scripts that serve the app's route handlers from a plain node:http server.
 */

/** node request → fetch Request; the signal aborts when the client disconnects. */
export function toRequest(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  let cancelled = false;
  const body = hasBody
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
  return new Request(url, { method: req.method, headers, body, signal: abort.signal, duplex: "half" } as RequestInit);
}

/** Streams a fetch Response into a node response; stops reading when the client leaves. */
export async function writeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
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
