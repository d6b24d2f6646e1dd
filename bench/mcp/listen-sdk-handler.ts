/**
 * The node:http front of the bench's bare SDK processes (serve-bare.ts, serve-relay.ts): each
 * request goes to the SDK's fetch-style handler through the tests' node ⇄ fetch adapter, and
 * "listening <port>" is printed once ready (bench/mcp/start-child.ts waits for it).
 */
import http from "node:http";
import type net from "node:net";
import { toRequest, writeResponse } from "../../tests/helpers/node-fetch-adapter";

export function listenSdkHandler(handler: { fetch(request: Request): Promise<Response> }): void {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    handler
      .fetch(toRequest(req, res, url))
      .then((response) => writeResponse(response, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as net.AddressInfo).port}`));
  process.on("SIGTERM", () => process.exit(0));
}
