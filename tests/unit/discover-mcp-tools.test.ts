import { afterEach, describe, expect, it } from "vitest";
import { UpstreamUnreachableError, discoverMcpTools } from "@/lib/connectors/discover-mcp-tools";
import { deadUpstreamUrl, startMcpUpstream, startSilentServer } from "@/tests/helpers/mcp-upstream";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i}` }));

describe("discoverMcpTools against a real upstream on 127.0.0.1", () => {
  it("walks every tools/list page and keeps order, titles, descriptions and schemas", async () => {
    const upstream = await startMcpUpstream({
      tools: [
        ...tools(4),
        { name: "search", title: "Search the docs", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
      ],
      pageSize: 2,
    });
    closers.push(upstream.close);
    const found = await discoverMcpTools({ url: upstream.url, headers: {} });
    expect(found.tools.map((t) => t.name)).toEqual(["tool_0", "tool_1", "tool_2", "tool_3", "search"]);
    // Every field MCP defines is kept (issue 25); none sent here.
    const none = { outputSchema: null, annotations: null, icons: null, execution: null, meta: null };
    expect(found.tools[0]).toEqual({ name: "tool_0", title: null, description: "Tool 0", inputSchema: { type: "object" }, ...none });
    expect(found.tools[4]).toMatchObject({ title: "Search the docs", description: "", inputSchema: { properties: { q: { type: "string" } }, required: ["q"] } });
    expect(upstream.listCalls).toBe(3);
    expect(found.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("falls back to initialize for a 2025-era server and records that protocol version", async () => {
    const modern = await startMcpUpstream({ tools: tools(1) });
    const legacy = await startMcpUpstream({ tools: tools(1), era: "legacy" });
    closers.push(modern.close, legacy.close);
    const a = await discoverMcpTools({ url: modern.url, headers: {} });
    const b = await discoverMcpTools({ url: legacy.url, headers: {} });
    expect(b.tools.map((t) => t.name)).toEqual(["tool_0"]);
    expect(b.protocolVersion).toMatch(/^2025-/);
    expect(a.protocolVersion).not.toEqual(b.protocolVersion);
  });

  it("sends the secret headers on every request", async () => {
    const upstream = await startMcpUpstream({ tools: tools(1), requireHeaders: { authorization: "Bearer up-secret-1" } });
    closers.push(upstream.close);
    const found = await discoverMcpTools({ url: upstream.url, headers: { Authorization: "Bearer up-secret-1" } });
    expect(found.tools).toHaveLength(1);
    expect(upstream.seenHeaders.length).toBeGreaterThan(0);
    expect(upstream.seenHeaders.every((h) => h.authorization === "Bearer up-secret-1")).toBe(true);
  });

  it("skips tools whose names cannot be published, and duplicates", async () => {
    const upstream = await startMcpUpstream({ tools: [{ name: "ok" }, { name: "has space" }, { name: "ok" }, { name: "x".repeat(65) }] });
    closers.push(upstream.close);
    const found = await discoverMcpTools({ url: upstream.url, headers: {} });
    expect(found.tools.map((t) => t.name)).toEqual(["ok"]);
    expect(found.skipped).toEqual(["has space", "ok", "x".repeat(65)]);
  });

  it("a refused credential is an UpstreamUnreachableError whose message holds no secret", async () => {
    const upstream = await startMcpUpstream({ tools: tools(1), requireHeaders: { "x-api-key": "right-value" } });
    closers.push(upstream.close);
    const error = await discoverMcpTools({ url: upstream.url, headers: { "x-api-key": "wrong-secret-value" } }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachableError);
    expect(error.message).not.toContain("wrong-secret-value");
  });

  it("a dead upstream is an UpstreamUnreachableError", async () => {
    const error = await discoverMcpTools({ url: await deadUpstreamUrl(), headers: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachableError);
    expect(error.message.length).toBeGreaterThan(0);
  });

  it("gives up on a silent upstream after the timeout", async () => {
    const silent = await startSilentServer();
    closers.push(silent.close);
    const started = Date.now();
    const error = await discoverMcpTools({ url: silent.url, headers: {} }, { timeoutMs: 400 }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnreachableError);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
