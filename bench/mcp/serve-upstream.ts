/**
 * The HTTP API behind the benchmark's http connectors, run as its own process: every request
 * is answered at once with a small JSON record (~400 bytes) naming the path it was asked for,
 * so a tools/call through the product and the same request sent straight here do the same
 * upstream work. Prints "listening <port>" once ready.
 *
 *   node --import tsx bench/mcp/serve-upstream.ts
 */
import http from "node:http";
import type net from "node:net";

/** The record answered for `path`: the same bytes every time for the same path. */
export function upstreamRecord(path: string): string {
  const id = path.split("?")[0].split("/").pop() ?? "";
  return JSON.stringify({
    id,
    path,
    name: `Record ${id}`,
    status: "active",
    priority: 2,
    tags: ["bench", "synthetic"],
    owner: { email: "owner@bench.example", team: "operations" },
    address: { street: "1 Example Street", city: "Berlin", postalCode: "10115", country: "DE" },
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-06-01T12:00:00.000Z",
  });
}

if (process.argv[1]?.endsWith("serve-upstream.ts")) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = upstreamRecord(req.url ?? "/");
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as net.AddressInfo).port}`));
  process.on("SIGTERM", () => process.exit(0));
}
