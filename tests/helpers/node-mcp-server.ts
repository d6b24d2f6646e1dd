import http from "node:http";
import type net from "node:net";
import { serveMcpNode } from "@/lib/mcp/serve/node-adapter/serve-node";

/**
 * The MCP endpoints as the instance's own node:http server serves them
 * (lib/mcp/serve/node-adapter/serve-node.ts, in front of Next), on 127.0.0.1: a body read whole
 * first, a stateless answer written straight to the socket. Anything else is 404 here.
 */
export interface NodeMcpServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Drops open connections (SSE streams included), then stops listening. */
  close(): Promise<void>;
}

export async function startNodeMcpServer(): Promise<NodeMcpServer> {
  const server = http.createServer((req, res) => {
    if (!serveMcpNode(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
