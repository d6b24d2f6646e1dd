import http from "node:http";
import net from "node:net";

/**
 * A real HTTP API on 127.0.0.1 for connector runtime tests: routes are plain handlers, and
 * every request it receives is recorded (method, path with query, lowercased headers, body).
 */

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type RouteHandler = (req: SeenRequest, res: http.ServerResponse) => void;

export interface HttpApiStub {
  origin: string;
  seen: SeenRequest[];
  route(method: string, path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

/** `listenPort`: listen there (to restart an API where its connector points); default any free one. */
export async function startHttpApi(listenPort = 0): Promise<HttpApiStub> {
  const routes = new Map<string, RouteHandler>();
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
    seen.push(request);
    const path = new URL(request.url, "http://x").pathname;
    const handler = routes.get(`${request.method} ${path}`) ?? routes.get(`* ${path}`);
    if (handler) handler(request, res);
    else res.writeHead(404, { "content-type": "text/plain" }).end(`no route for ${request.method} ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  server.unref();
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
