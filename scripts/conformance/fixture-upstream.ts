import http from "node:http";
import type net from "node:net";
import { Server, createMcpHandler, type CallToolResult } from "@modelcontextprotocol/server";
import { toRequest, writeResponse } from "../../tests/helpers/node-fetch-adapter";

/**
 * The upstream MCP server behind the conformance fixture's `mcp` connector: the tools the
 * official suite (@modelcontextprotocol/conformance) calls, with the exact contents its
 * scenarios describe. The platform serves them to the suite through /mcp/<fixture server>,
 * so the suite exercises the real path: endpoint → connector runtime → upstream.
 */

// A 1×1 red PNG and a 1-sample 8 kHz mono WAV: the smallest valid files of each kind.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==";

const noArgs = { type: "object" as const, properties: {} };

interface FixtureTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  result: CallToolResult;
}

export const FIXTURE_TOOLS: FixtureTool[] = [
  {
    name: "test_simple_text",
    description: "Returns a simple text response",
    inputSchema: noArgs,
    result: { content: [{ type: "text", text: "This is a simple text response for testing." }] },
  },
  {
    name: "test_image_content",
    description: "Returns image content",
    inputSchema: noArgs,
    result: { content: [{ type: "image", data: PNG, mimeType: "image/png" }] },
  },
  {
    name: "test_audio_content",
    description: "Returns audio content",
    inputSchema: noArgs,
    result: { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] },
  },
  {
    name: "test_embedded_resource",
    description: "Returns an embedded resource",
    inputSchema: noArgs,
    result: { content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }] },
  },
  {
    name: "test_multiple_content_types",
    description: "Returns text, image and resource content",
    inputSchema: noArgs,
    result: {
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' } },
      ],
    },
  },
  {
    name: "test_error_handling",
    description: "Always fails",
    inputSchema: noArgs,
    result: { isError: true, content: [{ type: "text", text: "This tool intentionally returns an error for testing" }] },
  },
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
    result: { content: [{ type: "text", text: "ok" }] },
  },
];

export interface FixtureUpstream {
  url: string;
  close(): Promise<void>;
}

export async function startFixtureUpstream(): Promise<FixtureUpstream> {
  const factory = () => {
    const server = new Server({ name: "conformance-fixture-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({ tools: FIXTURE_TOOLS.map(({ result: _result, ...tool }) => tool) as never }));
    server.setRequestHandler("tools/call", (request) => {
      const tool = FIXTURE_TOOLS.find((t) => t.name === request.params.name);
      return tool ? tool.result : { isError: true, content: [{ type: "text" as const, text: `Unknown tool ${request.params.name}` }] };
    });
    return server;
  };
  const handler = createMcpHandler(factory, { legacy: "stateless" });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    void handler.fetch(toRequest(req, res, url)).then((response) => writeResponse(response, res), () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
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
