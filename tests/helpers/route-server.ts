import http from "node:http";
import type net from "node:net";
import { stampSocketAddress } from "@/lib/net/socket-address";
import { matchRoute } from "@/tests/helpers/app-routes";
import { toRequest, writeResponse } from "@/tests/helpers/node-fetch-adapter";

/**
 * The app's route handlers behind a real node:http server on 127.0.0.1, for tests that need
 * real HTTP (MCP clients, streaming responses). Each request is adapted to the fetch-style
 * Request the route expects — headers, body, and an abort signal fired when the client goes
 * away — and the Response is streamed back as it is produced, as Next.js does.
 */

export interface RouteServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Node requests served so far (method and path). */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/** Starts the server; close() drops open connections (SSE streams included). */
export async function startRouteServer(): Promise<RouteServer> {
  const requests: RouteServer["requests"] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "GET", path: req.url ?? "/" });
    // As in production (instrumentation.ts): the peer address, never a client-sent copy.
    stampSocketAddress(req);
    void serve(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const route = await matchRoute(req.method ?? "GET", url.pathname);
  if (!route?.handler) {
    res.writeHead(route ? 405 : 404).end();
    return;
  }
  const response = await route.handler(toRequest(req, res, url), { params: Promise.resolve(route.params) });
  await writeResponse(response, res);
}
