/**
 * The protocol's own floor for a tools/call of an http tool, run as its own process so its CPU
 * time can be read apart: a bare MCP SDK v2 low-level Server built per request (the shape of
 * bench/mcp/serve-bare.ts: `createMcpHandler(…, { legacy: 'stateless' })` on node:http), whose
 * tools/call sends the very request the product's http tool sends — same method, path, query
 * and headers, to the same upstream, over a node:http keep-alive agent — and answers the MCP
 * result in the product's shape (the record as pretty JSON text plus structuredContent). No
 * authentication, no database, no audit, no argument validation: what relaying an API call
 * over MCP costs at the least. Prints "listening <port>" once ready.
 *
 *   node --import tsx bench/mcp/serve-relay.ts <upstream origin>
 */
import http from "node:http";
import { createMcpHandler, INVALID_PARAMS, ProtocolError, Server, type CallToolResult, type Tool } from "@modelcontextprotocol/server";
import { listenSdkHandler } from "./listen-sdk-handler";
import { type BenchTool, buildTenantData } from "./build-tenant-data";

interface Route {
  baseUrl: string;
  request: BenchTool["request"];
}

/** The product's http tool headers (lib/connectors/runtime/http-tool.ts), for a request alike on the wire. */
const HEADERS = { accept: "application/json, text/*;q=0.9, */*;q=0.8", "content-type": "application/json", "user-agent": "switchboard-connector/0.1" };

const agent = new http.Agent({ keepAlive: true });

/** The tenant's tools with where each goes: the connectors' base URLs are `<upstream>/api/<domain>` (bench/mcp/seed-tenant.ts). */
function routes(upstream: string): { tools: Tool[]; byName: Map<string, Route> } {
  const tools: Tool[] = [];
  const byName = new Map<string, Route>();
  for (const c of buildTenantData().connectors) {
    for (const t of c.tools) {
      tools.push({ name: t.name, description: t.description, inputSchema: t.inputSchema as Tool["inputSchema"] });
      byName.set(t.name, { baseUrl: `${upstream}/api/${c.domain}`, request: t.request });
    }
  }
  return { tools, byName };
}

/** `{param}` from the arguments, the rest in the query string (GET, DELETE) or a JSON body: the product's mapping. */
function plan(route: Route, args: Record<string, unknown>): { url: string; body: string | null } {
  const used = new Set<string>();
  const path = route.request.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    used.add(name);
    return encodeURIComponent(String(args[name]));
  });
  const rest = Object.entries(args).filter(([name, value]) => !used.has(name) && value !== undefined && value !== null);
  if (route.request.method !== "GET" && route.request.method !== "DELETE") return { url: route.baseUrl + path, body: JSON.stringify(Object.fromEntries(rest)) };
  const query = new URLSearchParams();
  for (const [name, value] of rest) for (const v of Array.isArray(value) ? value : [value]) query.append(name, typeof v === "object" ? JSON.stringify(v) : String(v));
  const search = query.toString();
  return { url: route.baseUrl + path + (search ? `?${search}` : ""), body: null };
}

function relay(route: Route, args: Record<string, unknown>): Promise<CallToolResult> {
  const { url, body } = plan(route, args);
  const headers: Record<string, string> = body === null ? HEADERS : { ...HEADERS, "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: route.request.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode !== 200) return resolve({ content: [{ type: "text", text: `HTTP ${res.statusCode}: ${text}` }], isError: true });
        const value = JSON.parse(text) as Record<string, unknown>;
        resolve({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value });
      });
    });
    req.on("error", reject);
    req.end(body ?? undefined);
  });
}

function serverFor(upstream: string): () => Server {
  const { tools, byName } = routes(upstream);
  const toolsAnswer = { tools };
  return () => {
    const server = new Server({ name: "bench-relay", version: "1.0.0" }, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler("tools/list", () => toolsAnswer);
    server.setRequestHandler("tools/call", (request) => {
      const route = byName.get(request.params.name);
      if (!route) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${request.params.name}`);
      return relay(route, request.params.arguments ?? {});
    });
    return server;
  };
}

function main(): void {
  const upstream = process.argv[2];
  if (!upstream) throw new Error("usage: serve-relay.ts <upstream origin>");
  listenSdkHandler(createMcpHandler(serverFor(upstream), { legacy: "stateless" }));
}

main();
