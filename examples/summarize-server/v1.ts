import { randomUUID } from "node:crypto";
import type http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { host } from "@switchboard/host-resources";
import { ANY_RESULT, HOST_INFO, HOST_REQUEST, LIST_FILES, SUMMARIZE } from "./schemas";
import { hostInfo, hostRequest, listFiles, summarize } from "./tools";
import type { ServerOptions } from "./options";

/**
 * The example on SDK v1 (`@modelcontextprotocol/sdk`): 2025-era only, one McpServer per
 * session. Sessions are what let a tool wait for the host's answer to its own request: the
 * answer arrives as another POST of the same session.
 */

function buildServer(options: ServerOptions): McpServer {
  const server = new McpServer({ name: "summarize-server", version: "1.0.0" });
  server.registerTool("summarize", SUMMARIZE, async (args, extra) => summarize(host(extra, server), args));
  server.registerTool("list_files", LIST_FILES, async (args, extra) => listFiles(host(extra, server), args));
  if (options.debugTools) {
    server.registerTool("host_info", HOST_INFO, async (_args, extra) => hostInfo(host(extra, server), server.server.getClientCapabilities()));
    server.registerTool("host_request", HOST_REQUEST, async ({ method, params }, extra) =>
      hostRequest(() => extra.sendRequest({ method, params } as never, ANY_RESULT)),
    );
  }
  return server;
}

/** A node:http request handler serving /mcp with stateful Streamable HTTP sessions. */
export function v1Handler(options: ServerOptions): (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => Promise<void> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; lastSeen: number }>();
  startIdleSweep(sessions, options.sessionIdleMs);
  return async (req, res, body) => {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (!session) return sessionNotFound(res);
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: initialize first (no session id)" }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: Date.now() }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer(options).connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

/** 404 makes the client initialize again (the spec's answer to an unknown session). */
function sessionNotFound(res: http.ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
}

/** Many clients never DELETE their session: close the ones idle for longer than `idleMs`. */
function startIdleSweep(sessions: Map<string, { transport: StreamableHTTPServerTransport; lastSeen: number }>, idleMs: number): void {
  const timer = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, s] of sessions) {
      if (s.lastSeen < cutoff) {
        sessions.delete(id);
        void s.transport.close();
      }
    }
  }, Math.min(idleMs, 60_000));
  timer.unref();
}
