/**
 * Example upstream MCP server for the ai.nimblebrain/host-resources extension: a `summarize`
 * tool that reads a host file by URI (file_uri) when the host serves the extension, or takes
 * the text inline. Built with @switchboard/host-resources on the MCP TypeScript SDK.
 *
 *   npx tsx examples/summarize-server/server.ts --port 3333            # SDK v1
 *   npx tsx examples/summarize-server/server.ts --port 3334 --sdk v2   # SDK v2
 *
 * See --help and README.md.
 */
import http from "node:http";
import type net from "node:net";
import { parseArgs } from "./options";
import { v1Handler } from "./v1";
import { v2Handler } from "./v2";

const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if ("exit" in parsed) {
    (parsed.exit === 0 ? process.stdout : process.stderr).write(parsed.message + "\n");
    process.exit(parsed.exit);
  }
  const options = parsed;
  const serveV1 = options.sdk === "v1" ? v1Handler(options) : null;
  const serveV2 = options.sdk === "v2" ? v2Handler(options) : null;

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== "/mcp") return reply(res, 404, "Not found: the MCP endpoint is /mcp");
      const raw = req.method === "POST" ? await readBody(req) : Buffer.alloc(0);
      if (raw === null) return reply(res, 413, "Request body too large");
      if (serveV1) {
        let body: unknown;
        try {
          body = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
        } catch {
          return reply(res, 400, "Parse error");
        }
        return serveV1(req, res, body);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
      const abort = new AbortController();
      res.once("close", () => abort.abort());
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "POST" ? new Uint8Array(raw) : undefined,
        signal: abort.signal,
      });
      const response = await serveV2!(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.flushHeaders();
      const reader = response.body?.getReader();
      // SSE answers stay open while the tool waits for the host; stop reading when the client leaves.
      res.once("close", () => void reader?.cancel().catch(() => undefined));
      for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
      res.end();
    })().catch((e: unknown) => {
      console.error("summarize-server: request failed:", e);
      if (!res.headersSent) reply(res, 500, "Internal error");
      else res.end();
    });
  });

  server.listen(options.port, options.host, () => {
    const { port } = server.address() as net.AddressInfo;
    console.log(`summarize-server listening on http://${options.host}:${port}/mcp (sdk ${options.sdk}${options.debugTools ? ", debug tools" : ""})`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

void main();
