import { describe, expect, it } from "vitest";
import { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { checkedToolCallResult } from "@/lib/mcp/serve/protocol/direct-tool-call";

/**
 * The direct path's last check of a tools/call result (lib/mcp/serve/protocol/direct-tool-call.ts)
 * must send what the SDK's own Server sends for the same handler result on a stateless 2025-era
 * POST: the same fields kept and dropped, the same refusal. Each case is answered by a real SDK
 * Server on its transport and compared with the check's output.
 */

/** What the SDK's Server puts in the answer for a tools/call handler that returns `result`. */
async function throughSdk(result: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/call", async () => result as never);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const response = await transport.handleRequest(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } }),
    }),
  );
  const data = (await response.text()).split("\n").find((line) => line.startsWith("data: "))!;
  await server.close();
  return JSON.parse(data.slice(6));
}

function throughDirectPath(result: Record<string, unknown>): { result?: unknown; error?: { code: number; message: string } } {
  try {
    return { result: JSON.parse(JSON.stringify(checkedToolCallResult(result))) };
  } catch (e) {
    return { error: { code: (e as { code: number }).code, message: (e as Error).message } };
  }
}

const CASES: Record<string, Record<string, unknown>> = {
  "unknown fields of a content block and of its annotations are dropped, the result's own kept": {
    content: [{ type: "text", text: "a", foo: 1, _meta: { m: 1 }, annotations: { audience: ["user"], bogus: 2 } }],
    structuredContent: { a: 1 },
    extra: 2,
    _meta: { x: 1 },
    isError: false,
  },
  "a result without content gets an empty one": { structuredContent: { a: 1 } },
  "an image and a resource link pass as they are": {
    content: [
      { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
    ],
  },
  "content that is not a list is refused": { content: "nope" },
  "a content block of an unknown type is refused": { content: [{ type: "bogus" }] },
};

describe("a tools/call result checked on the direct path", () => {
  for (const [name, result] of Object.entries(CASES)) {
    it(`${name}: as the SDK's Server answers it`, async () => {
      const sdk = await throughSdk(result);
      const direct = throughDirectPath(result);
      if (sdk.error) expect(direct.error).toEqual({ code: sdk.error.code, message: sdk.error.message });
      else expect(direct.result).toEqual(sdk.result);
    });
  }
});
