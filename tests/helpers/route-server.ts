import http from "node:http";
import type net from "node:net";
import { toRequest, writeResponse } from "@/tests/helpers/node-fetch-adapter";

/**
 * The app's route handlers behind a real node:http server on 127.0.0.1, for tests that need
 * real HTTP (MCP clients, streaming responses). Each request is adapted to the fetch-style
 * Request the route expects — headers, body, and an abort signal fired when the client goes
 * away — and the Response is streamed back as it is produced, as Next.js does.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

const modules = import.meta.glob<RouteModule>("/app/**/route.ts");

interface Route {
  pattern: RegExp;
  names: string[];
  load: () => Promise<RouteModule>;
  dynamicCount: number;
}

/** Static segments rank before dynamic ones, as in Next.js. */
const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => {
    const segments = file.replace(/^\/app/, "").replace(/\/route\.ts$/, "").split("/").filter(Boolean);
    const names: string[] = [];
    const pattern = segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => {
        const dynamic = s.match(/^\[(?:\.\.\.)?(\w+)\]$/);
        if (!dynamic) return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(dynamic[1]);
        return s.startsWith("[...") ? "/(.+)" : "/([^/]+)";
      })
      .join("");
    return { pattern: new RegExp(`^${pattern || ""}/?$`), names, load, dynamicCount: names.length };
  })
  .sort((a, b) => a.dynamicCount - b.dynamicCount);

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
  const route = routes.find((r) => r.pattern.test(url.pathname));
  const handler = route ? (await route.load())[req.method ?? "GET"] : undefined;
  if (!route || !handler) {
    res.writeHead(route ? 405 : 404).end();
    return;
  }
  const match = url.pathname.match(route.pattern)!;
  const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
  const response = await handler(toRequest(req, res, url), { params: Promise.resolve(params) });
  await writeResponse(response, res);
}
