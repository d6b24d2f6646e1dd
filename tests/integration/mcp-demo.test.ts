import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { connectV1, connectV2, postRaw, rpcError } from "@/tests/helpers/mcp-clients";

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer();
});
afterAll(() => server.close());

describe("/mcp/demo: a public, anonymous server with built-in tools", () => {
  it("a 2025-era client initializes without a key, lists the demo tools and calls them", async () => {
    const { client, close } = await connectV1(`${server.origin}/mcp/demo`, null);
    try {
      expect(client.getServerCapabilities()?.resources).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo", "add", "current_time"]);
      const echoed = await client.callTool({ name: "echo", arguments: { text: "hello" } });
      expect(echoed.content).toEqual([{ type: "text", text: "hello" }]);
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const bad = await client.callTool({ name: "add", arguments: { a: "x", b: 1 } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain("`a`");
      expect(client.getInstructions()).toContain("demo");
    } finally {
      await close();
    }
  });

  it("a 2026-07-28 client discovers it and calls a tool", async () => {
    const { client, close } = await connectV2(`${server.origin}/mcp/demo`, null);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo", "add", "current_time"]);
      const time = await client.callTool({ name: "current_time", arguments: {} });
      expect((time.content as Array<{ text: string }>)[0].text).toMatch(/^\d{4}-\d\d-\d\dT/);
      const err = await rpcError(client.callTool({ name: "nope", arguments: {} }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain("Unknown tool");
    } finally {
      await close();
    }
  });

  it("publishes no resources: resources/list is not a method there", async () => {
    const res = await postRaw(`${server.origin}/mcp/demo`, { jsonrpc: "2.0", id: 1, method: "resources/list", params: {} });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32601);
  });
});
