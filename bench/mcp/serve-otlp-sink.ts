/**
 * An OTLP/HTTP trace receiver that accepts and drops, run as its own process for
 * `npm run bench:mcp -- --otlp`: the app exports its spans here (the specification's default
 * http/protobuf), so the run measures the product with tracing on without a collector to set
 * up, and the receiver's work is not counted as the app's. It keeps only counts, which
 * `GET /__bench/received` answers. Prints "listening <port>" once ready.
 *
 *   node --import tsx bench/mcp/serve-otlp-sink.ts
 */
import http from "node:http";
import type net from "node:net";

const RECEIVED_PATH = "/__bench/received";

/** What the sink at `origin` has received so far, as a line for the run's summary. */
export async function sinkReport(origin: string): Promise<string> {
  const { requests, bytes } = (await (await fetch(`${origin}${RECEIVED_PATH}`)).json()) as { requests: number; bytes: number };
  return `Tracing on (--otlp): the OTLP receiver got ${requests} export request(s), ${(bytes / 1024).toFixed(0)} KB of spans.`;
}

function serve(): void {
  const received = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url === RECEIVED_PATH) return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
    req.on("data", (chunk: Buffer) => void (received.bytes += chunk.length));
    req.on("end", () => {
      received.requests++;
      // An empty ExportTraceServiceResponse, in the request's encoding: everything accepted.
      const json = String(req.headers["content-type"]).includes("json");
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" }).end(json ? "{}" : undefined);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as net.AddressInfo).port}`));
  process.on("SIGTERM", () => process.exit(0));
}

if (process.argv[1]?.endsWith("serve-otlp-sink.ts")) serve();
