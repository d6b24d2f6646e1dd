import { randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { Server as V1Server } from "@modelcontextprotocol/sdk/server";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types";
import { Server as V2Server, createMcpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";

/**
 * Real upstream MCP servers on 127.0.0.1 for connector runtime tests, each recording every
 * JSON-RPC message it receives:
 * - a 2025-era server built with the v1 SDK (`@modelcontextprotocol/sdk`), stateful, so it can
 *   send requests back to the client (ai.nimblebrain/resources/*) during a tool call;
 * - a 2026-07-28 server built with the v2 SDK (`@modelcontextprotocol/server`);
 * - a server on the legacy HTTP+SSE transport (v1 SDK), as servers of 2024-11-05 serve.
 * Both can be stopped and started again on the same port.
 */

export interface RecordedUpstream {
  url: string;
  /** Every JSON-RPC message received, in order. */
  messages: Array<{ method?: string; params?: any; id?: unknown }>;
  /** The `initialize` requests received. */
  initializes(): Array<{ params: any }>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const UPSTREAM_TOOLS = [
  { name: "echo", description: "Echoes its arguments and the session", inputSchema: { type: "object" as const, properties: { text: { type: "string" } } } },
  { name: "host_call", description: "Sends a host-resources request back to the client", inputSchema: { type: "object" as const, properties: { method: { type: "string" }, params: { type: "object" } }, required: ["method"] } },
  { name: "fails", description: "Answers isError", inputSchema: { type: "object" as const } },
];

const LooseResult = z.object({}).passthrough();

export interface V1UpstreamOptions {
  /**
   * Negotiate this earlier 2025-era (or 2024) revision instead of the client's latest: the
   * initialize request is handed to the SDK as if the client had asked for it.
   */
  protocolVersion?: string;
  /** Sees every HTTP request (the SSE stream's GET included) before it is served. */
  onRequest?: (req: http.IncomingMessage) => void;
}

/** A v1 SDK server with UPSTREAM_TOOLS (`host_call` sends its request back to the client). */
function newV1Server(): V1Server {
  const server = new V1Server({ name: "v1-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: UPSTREAM_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, any>;
    if (request.params.name === "echo") return { content: [{ type: "text", text: JSON.stringify({ args, session: extra.sessionId }) }] };
    if (request.params.name === "fails") return { content: [{ type: "text", text: "nope" }], isError: true };
    try {
      const result = await extra.sendRequest({ method: args.method, params: args.params } as any, LooseResult);
      return { content: [{ type: "text", text: JSON.stringify({ result }) }] };
    } catch (e: any) {
      return { content: [{ type: "text", text: JSON.stringify({ error: { code: e.code, data: e.data } }) }] };
    }
  });
  return server;
}

/** The 2025-era upstream (v1 SDK, stateful Streamable HTTP). */
export async function startV1Upstream(options: V1UpstreamOptions = {}): Promise<RecordedUpstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return recorded(async (req, res, body) => {
    const sid = req.headers["mcp-session-id"] as string | undefined;
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || !isInitialize(body)) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
      await newV1Server().connect(created);
      transport = created;
    }
    const asked = options.protocolVersion && isInitialize(body) ? withRequestedVersion(body, options.protocolVersion) : body;
    await transport.handleRequest(req, res, asked);
  }, () => sessions.clear());
}

/**
 * The legacy HTTP+SSE upstream (v1 SDK): GET on the url opens the event stream, whose
 * `endpoint` event names where to POST messages. `protocolVersion` as for startV1Upstream.
 */
export async function startSseUpstream(options: V1UpstreamOptions = {}): Promise<RecordedUpstream> {
  const sessions = new Map<string, SSEServerTransport>();
  return recorded(async (req, res, body) => {
    options.onRequest?.(req);
    if (req.method === "GET") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      await newV1Server().connect(transport);
      return;
    }
    const transport = sessions.get(new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("sessionId") ?? "");
    if (!transport) {
      res.writeHead(404).end("unknown session");
      return;
    }
    const asked = options.protocolVersion && isInitialize(body) ? withRequestedVersion(body, options.protocolVersion) : body;
    await transport.handlePostMessage(req, res, asked);
  }, () => sessions.clear());
}

/** The 2026-07-28 upstream (v2 SDK; answers 2025-era clients statelessly too). */
export async function startV2Upstream(): Promise<RecordedUpstream> {
  const factory = () => {
    const server = new V2Server({ name: "v2-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({ tools: UPSTREAM_TOOLS as any }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const args = (request.params.arguments ?? {}) as Record<string, any>;
      if (request.params.name !== "host_call") return { content: [{ type: "text" as const, text: JSON.stringify({ args }) }] };
      // Tries the server → client request anyway; `timeoutMs` bounds the wait for an answer.
      try {
        const result = await ctx.mcpReq.send({ method: args.method, params: args.params } as any, LooseResult, { timeout: Number(args.timeoutMs) || 2000 });
        return { content: [{ type: "text" as const, text: JSON.stringify({ result }) }] };
      } catch (e: any) {
        return { content: [{ type: "text" as const, text: JSON.stringify({ error: { code: e.code, data: e.data } }) }] };
      }
    });
    return server;
  };
  const handler = createMcpHandler(factory, { legacy: "stateless" });
  return recorded(async (req, res, body) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) for (const value of [v ?? []].flat()) headers.append(k, value);
    const hasBody = req.method === "POST";
    const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: hasBody ? JSON.stringify(body) : undefined }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
    res.end();
  });
}

/** The initialize request of `body` asking for `version` (the SDK answers what is asked when it supports it). */
function withRequestedVersion(body: unknown, version: string): unknown {
  const rewrite = (m: any) => (m?.method === "initialize" ? { ...m, params: { ...m.params, protocolVersion: version } } : m);
  return Array.isArray(body) ? body.map(rewrite) : rewrite(body);
}

export function isInitialize(body: unknown): boolean {
  return [body].flat().some((m) => (m as { method?: string } | null)?.method === "initialize");
}

export type Serve = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => Promise<void>;

/** A node:http server on a fixed port that records the JSON-RPC messages it receives. */
export async function recorded(serve: Serve, onStop: () => void = () => undefined): Promise<RecordedUpstream> {
  const messages: RecordedUpstream["messages"] = [];
  let server: http.Server | null = null;
  let port = 0;
  const start = async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text ? JSON.parse(text) : undefined;
      for (const m of [body ?? []].flat()) messages.push(m as RecordedUpstream["messages"][number]);
      await serve(req, res, body).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    server.unref();
    port = (server.address() as net.AddressInfo).port;
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    messages,
    initializes: () => messages.filter((m) => m.method === "initialize") as Array<{ params: any }>,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        onStop();
        server?.closeAllConnections();
        server?.close(() => resolve());
        server = null;
      }),
  };
}
