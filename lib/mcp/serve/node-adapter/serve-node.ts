import type http from "node:http";
import { setting } from "@/lib/config/settings";
import { STATIC_SECURITY_HEADERS } from "@/lib/net/static-security-headers";
import { readNodeBody, toRequest, writeResponse, writeResponseHead } from "@/lib/net/node-fetch";
import { madeSseSink, offerSseSink } from "@/lib/mcp/serve/node-adapter/node-sse-sink";
import { setNodeMcpHandler } from "@/lib/mcp/serve/node-adapter/node-handler-slot";
import { serveMcp } from "@/lib/mcp/serve/http-edge/serve-mcp";
import type { McpEndpoint } from "@/lib/mcp/surface/surface-types";

/**
 * The MCP endpoints served straight from the instance's own node:http server (scripts/serve.ts),
 * in front of Next.js: the same serveMcp as the app/mcp route handlers — same authentication,
 * limits, logs and metrics — without the framework's per-request routing work, which alone
 * capped a trivial route at a fifth of what bare node:http serves on the same machine
 * (bench/README.md). Registered by instrumentation.ts, so it runs in the module instance of
 * the Next.js server, sharing its caches, connections and metrics registry.
 *
 * Only the three endpoints and the methods MCP uses (and CORS preflights) are taken; anything
 * else (HEAD, a trailing slash, a percent-escape to decode) goes on to Next as before. MCP_SERVE_DIRECT=false
 * leaves every request to Next.
 */

const METHODS = new Set(["GET", "POST", "DELETE", "OPTIONS"]);
const HEADERS = Object.entries(STATIC_SECURITY_HEADERS);

/** Makes the handler available to scripts/serve.ts (instrumentation.ts calls this at start). */
export function registerNodeMcpHandler(): void {
  setNodeMcpHandler(setting("MCP_SERVE_DIRECT") ? serveMcpNode : undefined);
}

/** The endpoint a request path names, or null when the path is not exactly one of them. */
export function endpointOfPath(url: string): McpEndpoint | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (path === "/mcp") return { kind: "shared" };
  if (!path.startsWith("/mcp/")) return null;
  const id = path.slice(5);
  if (id.length === 0 || id.includes("/") || id.includes("%")) return null;
  return id === "demo" ? { kind: "demo" } : { kind: "server", serverId: id };
}

export function serveMcpNode(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (!METHODS.has(req.method ?? "")) return false;
  const endpoint = endpointOfPath(req.url ?? "/");
  if (!endpoint) return false;
  const url = URL.parse(req.url!, `http://${req.headers.host ?? "localhost"}`);
  // A Host header no fetch Request can be made of (none parses, or it carries user:password@):
  // Next answers it as before, before anything of the request is read here.
  if (!url || url.username || url.password) return false;
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  // A small POST of known length (a tool call is a few hundred bytes) is read whole first, so
  // its Request carries bytes rather than a stream the handler would clone and read back.
  const length = Number(req.headers["content-length"]);
  if (req.method === "POST" && length > 0 && length <= READ_WHOLE_MAX_BYTES) {
    void readNodeBody(req).then((body) => body && serveAdapted(req, res, url, endpoint, body));
  } else serveAdapted(req, res, url, endpoint);
  return true;
}

/** Bodies up to this size are read before the request is served (larger ones are streamed). */
const READ_WHOLE_MAX_BYTES = 64 * 1024;

function serveAdapted(req: http.IncomingMessage, res: http.ServerResponse, url: URL, endpoint: McpEndpoint, body?: Buffer): void {
  let request: Request;
  try {
    request = toRequest(req, res, url, body);
  } catch {
    // Never let a throw escape the request listener; this request is ours now, so answer it.
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end("Bad request.");
    return;
  }
  offerSseSink(request);
  void serveMcp(request, endpoint)
    .then((response) => {
      const sink = madeSseSink(request);
      if (!sink?.adopted) return writeResponse(response, res);
      // A 2025-era stateless event stream: written here by its transport, not read from the body.
      writeResponseHead(response, res);
      sink.attach(res);
    })
    .catch(() => {
      // serveMcp answers every failure itself; this is the socket going away mid-write.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
}
