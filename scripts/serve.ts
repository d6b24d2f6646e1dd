/**
 * The HTTP server of every instance (npm start, the container, the browser tests): Next.js's
 * own request handler behind a node:http server, which first answers what Next cannot.
 *
 * Next builds a fetch `Request` for every request it serves, and the Fetch standard forbids
 * the TRACE method, so `next start` answered TRACE with a bare 500 on every path before any
 * code of ours could run (issue 10: "the TRACE method"). Here it gets a 405. (TRACK and
 * CONNECT never reach a request listener: Node's parser answers 400 or drops the connection.)
 *
 * The MCP endpoints are answered here too, by the handler the Next.js server registered when
 * it started (lib/mcp/serve/node-adapter/serve-node.ts): the framework's routing is skipped on the hot path.
 *
 * Stopping: on SIGTERM/SIGINT the server stops accepting connections, lets requests in flight
 * finish (lib/ops/shutdown.ts closes the long-lived MCP streams), then exits, as `next start`
 * does.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type next from "next";
import { stampSocketAddress } from "../lib/net/socket-address";
import { nodeMcpHandler } from "../lib/mcp/serve/node-adapter/node-handler-slot";

const HELP = `Usage: node --import tsx scripts/serve.ts [--dev] [-p PORT] [-H HOSTNAME]

Serves the production build in .next (next build first), or the sources with --dev.
PORT defaults to 3000, HOSTNAME to every interface.
`;


function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** 405 problem+json for a method Next.js would fail on; true when answered. */
function refuseUnservable(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "TRACE") return false;
  const body = JSON.stringify({
    type: "https://switchboard.dev/problems/method-not-allowed",
    title: "Method not allowed",
    status: 405,
    detail: `${req.method} is not supported.`,
  });
  res.writeHead(405, { "content-type": "application/problem+json", allow: "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE", "content-length": Buffer.byteLength(body) });
  res.end(body);
  return true;
}

/**
 * Serves with the configuration the build recorded (.next/required-server-files.json), as Next's
 * own standalone server does, instead of loading next.config.ts: the image has no next.config.ts
 * (nor the TypeScript to read it), and `npm start` then runs exactly what the image runs.
 * Next warns that `output: "standalone"` is not for `next start` unless this is set.
 */
function serveBuiltConfig(dir: string): void {
  const file = path.join(dir, ".next", "required-server-files.json");
  if (!fs.existsSync(file)) return; // no build: Next says so itself
  const { config } = JSON.parse(fs.readFileSync(file, "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

function stopOnSignal(server: http.Server, app: ReturnType<typeof next>): void {
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    server.close(() => void app.close().finally(() => process.exit(code)));
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop(143));
  process.on("SIGINT", () => stop(130));
}

async function main(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) return void process.stdout.write(HELP);
  const dev = args.includes("--dev");
  const port = Number(option(args, "-p") ?? 3000);
  const hostname = option(args, "-H");
  // As `next start` / `next dev` do, before Next (and React with it) is loaded.
  // PORT too: the addresses the app makes without a request (the connect link of an MCP answer,
  // the OAuth issuer without PUBLIC_URL) name the port it really listens on, not PORT's default.
  Object.assign(process.env, { NODE_ENV: dev ? "development" : "production", PORT: String(port) });
  if (!dev) serveBuiltConfig(process.cwd());
  const { default: createNext } = await import("next");
  const app = createNext({ dev, dir: process.cwd(), hostname: hostname ?? "localhost", port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    if (refuseUnservable(req, res)) return;
    // From the very first request (instrumentation.ts's hook comes in only once Next is up).
    stampSocketAddress(req);
    // The MCP endpoints, straight from here (registered by instrumentation.ts during prepare).
    if (!dev && nodeMcpHandler()?.(req, res)) return;
    void handle(req, res);
  });
  if (dev) server.on("upgrade", app.getUpgradeHandler());
  stopOnSignal(server, app);
  server.listen(port, hostname, () => console.log(`Ready on http://${hostname ?? "localhost"}:${port}`));
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`serve failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
