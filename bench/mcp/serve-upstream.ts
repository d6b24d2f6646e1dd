/**
 * The HTTP API behind the benchmark's http connectors, run as its own process: every request
 * is answered with a small JSON record (~400 bytes) naming the path it was asked for, so a
 * tools/call through the product and the same request sent straight here do the same
 * upstream work. Prints "listening <port>" once ready.
 *
 * At once by default; after a timer of N ms once the benchmark has sent
 * `POST /__bench/delay?ms=N` (`ms=0` for at once again). The delay is switched at run time,
 * in this process, so the tenant and the product's requests stay exactly the same for the
 * delayed kind: a real API answers in milliseconds, not in the 0.03 ms this one needs.
 *
 *   node --import tsx bench/mcp/serve-upstream.ts
 */
import http from "node:http";
import type net from "node:net";

/** The control path: outside every connector's base URL (`/api/<domain>`). */
export const DELAY_PATH = "/__bench/delay";

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

/** Tells the upstream at `origin` to answer after `ms` ms from now on (0: at once). */
export async function setUpstreamDelay(origin: string, ms: number): Promise<void> {
  const response = await fetch(`${origin}${DELAY_PATH}?ms=${ms}`, { method: "POST" });
  if (response.status !== 204) throw new Error(`the upstream refused the delay of ${ms} ms: HTTP ${response.status}`);
}

function serve(): void {
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const url = req.url ?? "/";
      if (req.method === "POST" && url.startsWith(`${DELAY_PATH}?`)) {
        const ms = Number(new URLSearchParams(url.slice(DELAY_PATH.length + 1)).get("ms"));
        if (!Number.isInteger(ms) || ms < 0) return void res.writeHead(400).end();
        delayMs = ms;
        return void res.writeHead(204).end();
      }
      const body = upstreamRecord(url);
      const answer = () => res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as net.AddressInfo).port}`));
  process.on("SIGTERM", () => process.exit(0));
}

if (process.argv[1]?.endsWith("serve-upstream.ts")) serve();
