import http from "node:http";
import net from "node:net";
import { Server, createMcpHandler, legacyStatelessFallback } from "@modelcontextprotocol/server";

/**
 * A real upstream MCP server on 127.0.0.1 for tests (MCP TypeScript SDK v2 over node:http).
 * Its tool list is mutable and paginated, it can demand a header, and it records the headers
 * of every request it receives.
 */

export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface UpstreamOptions {
  tools?: UpstreamTool[];
  /** tools/list page size (default: everything on one page). */
  pageSize?: number;
  /** Answer 401 unless every one of these headers is sent with exactly this value. */
  requireHeaders?: Record<string, string>;
  /** "modern": 2026-07-28 and 2025-era (createMcpHandler); "legacy": 2025-era only. */
  era?: "modern" | "legacy";
  /** Listen on this port (to restart an upstream where its connector points); default any free one. */
  port?: number;
  /** Generated prompts `<prefix>p<i>`, resources `gen://<prefix>r/<i>` and templates `gen://<prefix>t<i>/{id}`, made page by page (`pageSize` per page). */
  catalog?: { prompts?: number; resources?: number; templates?: number; pageSize: number; prefix?: string };
  /** Serves tools/call: the text of the tool's result (none: the SDK's "method not found"). */
  answer?: (name: string, args: Record<string, unknown>) => string;
}

export interface Upstream {
  url: string;
  tools: UpstreamTool[];
  /** Headers of every HTTP request received, lowercased names. */
  seenHeaders: Record<string, string>[];
  /** tools/list calls served (one per page). */
  listCalls: number;
  /** Pages served of each generated catalog list (prompts/list, resources/list, resources/templates/list). */
  catalogPages: Record<string, number>;
  close(): Promise<void>;
}

export async function startMcpUpstream(options: UpstreamOptions = {}): Promise<Upstream> {
  const state: Upstream = { url: "", tools: options.tools ?? [], seenHeaders: [], listCalls: 0, catalogPages: {}, close: async () => {} };
  const factory = () => {
    const catalog = options.catalog;
    const server = new Server({ name: "test-upstream", version: "1.0.0" }, { capabilities: { tools: {}, ...(catalog ? { prompts: {}, resources: {} } : {}) } });
    if (catalog) serveGeneratedCatalog(server, catalog, state.catalogPages);
    server.setRequestHandler("tools/list", (request) => {
      state.listCalls++;
      const size = options.pageSize ?? Math.max(1, state.tools.length);
      const start = Number(request.params?.cursor ?? 0);
      const page = state.tools.slice(start, start + size).map((t) => ({ ...t, inputSchema: { type: "object" as const, ...t.inputSchema } }));
      const next = start + size < state.tools.length ? String(start + size) : undefined;
      return { tools: page, ...(next ? { nextCursor: next } : {}) };
    });
    const answer = options.answer;
    if (answer) server.setRequestHandler("tools/call", (request) => ({ content: [{ type: "text" as const, text: answer(request.params.name, request.params.arguments ?? {}) }] }));
    return server;
  };
  const fetchHandler =
    options.era === "legacy" ? legacyStatelessFallback(factory) : createMcpHandler(factory, { legacy: "stateless" }).fetch;

  const httpServer = http.createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) for (const value of [v ?? []].flat()) headers.append(k, value);
    state.seenHeaders.push(Object.fromEntries(headers));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const missing = Object.entries(options.requireHeaders ?? {}).some(([k, v]) => headers.get(k) !== v);
    if (missing) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
      return;
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
    const request = new Request(`${state.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
    const response = await fetchHandler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
    res.end();
  }

  await new Promise<void>((resolve) => httpServer.listen(options.port ?? 0, "127.0.0.1", resolve));
  httpServer.unref();
  state.url = `http://127.0.0.1:${(httpServer.address() as net.AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise<void>((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    });
  return state;
}

/** Lists of generated entries, each page made when asked for (an upstream listing 100,000 costs the test nothing up front). */
function serveGeneratedCatalog(server: Server, catalog: NonNullable<UpstreamOptions["catalog"]>, pages: Record<string, number>): void {
  const x = catalog.prefix ?? "";
  const page = <T>(method: string, total: number, cursor: unknown, make: (i: number) => T) => {
    pages[method] = (pages[method] ?? 0) + 1;
    const start = Number(cursor ?? 0);
    const end = Math.min(total, start + catalog.pageSize);
    const items = Array.from({ length: Math.max(0, end - start) }, (_, k) => make(start + k));
    return { items, ...(end < total ? { nextCursor: String(end) } : {}) };
  };
  server.setRequestHandler("prompts/list", (r) => {
    const { items, ...rest } = page("prompts/list", catalog.prompts ?? 0, r.params?.cursor, (i) => ({ name: `${x}p${i}` }));
    return { prompts: items, ...rest };
  });
  server.setRequestHandler("prompts/get", (r) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text: r.params.name } }] }));
  server.setRequestHandler("resources/list", (r) => {
    const { items, ...rest } = page("resources/list", catalog.resources ?? 0, r.params?.cursor, (i) => ({ uri: `gen://${x}r/${i}`, name: `r${i}` }));
    return { resources: items, ...rest };
  });
  server.setRequestHandler("resources/templates/list", (r) => {
    const { items, ...rest } = page("resources/templates/list", catalog.templates ?? 0, r.params?.cursor, (i) => ({ uriTemplate: `gen://${x}t${i}/{id}`, name: `t${i}` }));
    return { resourceTemplates: items, ...rest };
  });
  server.setRequestHandler("resources/read", (r) => ({ contents: [{ uri: r.params.uri, text: r.params.uri }] }));
}

/** An http URL on 127.0.0.1 where nothing listens (the port was free a moment ago). */
export async function deadUpstreamUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

/** An HTTP server that accepts connections and never answers (for timeouts). */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(() => {
    /* never answers */
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
