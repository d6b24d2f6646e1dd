import { randomUUID } from "node:crypto";
import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { host } from "@switchboard/host-resources";
import { ANY_RESULT, HOST_INFO, HOST_REQUEST, LIST_FILES, SUMMARIZE } from "./schemas";
import { hostInfo, hostRequest, listFiles, summarize } from "./tools";
import type { ServerOptions } from "./options";

/**
 * The example on SDK v2 (`@modelcontextprotocol/server`). 2026-07-28 requests are served by
 * `createMcpHandler` (no session: that revision has no server → client requests, so there is
 * nothing to wait for, and the tool falls back to inline text). 2025-era clients get a stateful
 * session, as on v1, so the host's answers reach the waiting tool.
 */

function buildServer(options: ServerOptions): McpServer {
  const server = new McpServer({ name: "summarize-server", version: "1.0.0" });
  server.registerTool("summarize", SUMMARIZE, async (args, ctx) => summarize(host(ctx, server), args));
  server.registerTool("list_files", LIST_FILES, async (args, ctx) => listFiles(host(ctx, server), args));
  if (options.debugTools) {
    server.registerTool("host_info", HOST_INFO, async (_args, ctx) => {
      const h = host(ctx, server);
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      // On 2026-07-28 the client's capabilities ride in every request's _meta.
      const capabilities = (envelope?.["io.modelcontextprotocol/clientCapabilities"] as object | undefined) ?? server.server.getClientCapabilities();
      return hostInfo(h, capabilities);
    });
    server.registerTool("host_request", HOST_REQUEST, async ({ method, params }, ctx) =>
      hostRequest(() => ctx.mcpReq.send({ method, params }, ANY_RESULT)),
    );
  }
  return server;
}

/** A fetch-style handler for /mcp: 2026-07-28 statelessly, 2025-era in sessions. */
export function v2Handler(options: ServerOptions): (request: Request) => Promise<Response> {
  const modern = createMcpHandler(() => buildServer(options), { legacy: "reject" });
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; lastSeen: number }>();
  startIdleSweep(sessions, options.sessionIdleMs);

  const legacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request);
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: Date.now() }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer(options).connect(transport);
    return transport.handleRequest(request);
  };

  return async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request));
}

function startIdleSweep(sessions: Map<string, { transport: WebStandardStreamableHTTPServerTransport; lastSeen: number }>, idleMs: number): void {
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
