/**
 * The baseline of `npm run bench:mcp`, run as its own process so its CPU time can be read
 * apart: a bare MCP SDK v2 low-level Server on node:http, stateless (createMcpHandler with
 * `legacy: 'stateless'`, so both eras are answered), serving from memory the tools, resources
 * and instructions in the JSON file named on the command line. No authentication, no database:
 * what the protocol itself costs. Prints "listening <port>" once ready.
 *
 *   node --import tsx bench/mcp/serve-bare.ts <surface.json>
 */
import fs from "node:fs";
import { createMcpHandler, ResourceNotFoundError, Server, type ReadResourceResult, type Resource, type Tool } from "@modelcontextprotocol/server";
import { listenSdkHandler } from "./listen-sdk-handler";

/** What the bare server serves: the product's own answers, captured by the benchmark. */
export interface BareSurface {
  info: { name: string; version: string };
  instructions: string;
  tools: Tool[];
  resources: Resource[];
  /** resources/read answers by URI. */
  contents: Record<string, ReadResourceResult>;
}

/** A low-level Server per request over lists computed once (notes: "lists precomputed once"). */
function serverFor(surface: BareSurface): () => Server {
  const toolsAnswer = { tools: surface.tools };
  const resourcesAnswer = { resources: surface.resources };
  return () => {
    const server = new Server(surface.info, {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions: surface.instructions,
    });
    server.setRequestHandler("tools/list", () => toolsAnswer);
    server.setRequestHandler("resources/list", () => resourcesAnswer);
    server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
    server.setRequestHandler("resources/read", (request) => {
      const found = surface.contents[request.params.uri];
      if (!found) throw new ResourceNotFoundError(request.params.uri);
      return found;
    });
    return server;
  };
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error("usage: serve-bare.ts <surface.json>");
  const surface = JSON.parse(fs.readFileSync(file, "utf8")) as BareSurface;
  listenSdkHandler(createMcpHandler(serverFor(surface), { legacy: "stateless" }));
}

main();
