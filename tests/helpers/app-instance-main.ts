/**
 * Entry point of one "app instance" for multi-instance tests (see app-instance.ts): a separate
 * Node process, with its own module graph, Prisma pool and Redis connection, that serves the
 * app's route handlers (app/**\/route.ts) over HTTP on 127.0.0.1 — the same handlers `next start`
 * runs, without a build. It prints `listening <port>` once ready and exits on SIGTERM.
 *
 * Run with `node --import tsx tests/helpers/app-instance-main.ts` (tsx resolves the "@/" paths).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { stampSocketAddress } from "@/lib/net/socket-address";
import { byNextPrecedence, routeParams, routePattern, type RoutePattern } from "@/tests/helpers/route-patterns";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

type Route = RoutePattern & { file: string };

const APP_DIR = path.resolve("app");

/** Every route.ts under app/, as a URL pattern, in the order Next tries them. */
function discoverRoutes(): Route[] {
  const files = (fs.readdirSync(APP_DIR, { recursive: true }) as string[]).filter((f) => /(^|\/)route\.ts$/.test(f));
  return files.map((file) => ({ ...routePattern(path.dirname(file).split(path.sep)), file: path.join(APP_DIR, file) })).sort(byNextPrecedence);
}

const routes = discoverRoutes();

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  stampSocketAddress(req);
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const route = routes.find((r) => r.pattern.test(url.pathname));
  const routeModule = route ? ((await import(pathToFileURL(route.file).href)) as Record<string, Handler | undefined>) : undefined;
  const handler = routeModule?.[req.method ?? "GET"];
  if (!route || !handler) {
    res.writeHead(route ? 405 : 404).end();
    return;
  }
  const params = routeParams(route, url.pathname);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", req.socket.remoteAddress ?? "unknown");
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});

process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
