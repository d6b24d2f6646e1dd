import { afterEach, describe, expect, it } from "vitest";
import { discoverMcpTools, MAX_DISCOVERED_TOOLS } from "@/lib/connectors/discover-mcp-tools";
import { startMcpUpstream } from "@/tests/helpers/mcp-upstream";

/**
 * What an upstream MCP server lists is stored as the connector's tools and its skipped names go
 * to the audit log: both are bounded, whatever the upstream sends.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("discoverMcpTools bounds what an upstream lists", () => {
  it("keeps at most MAX_DISCOVERED_TOOLS tools, cuts long descriptions, and lists the skipped names boundedly", async () => {
    const total = MAX_DISCOVERED_TOOLS + 150;
    const upstream = await startMcpUpstream({
      tools: Array.from({ length: total }, (_, i) => ({ name: `tool_${i}`, description: i === 0 ? "d".repeat(100_000) : `Tool ${i}` })),
    });
    closers.push(upstream.close);
    const found = await discoverMcpTools({ url: upstream.url, headers: {} });
    expect(found.tools).toHaveLength(MAX_DISCOVERED_TOOLS);
    expect(found.tools.at(-1)!.name).toBe(`tool_${MAX_DISCOVERED_TOOLS - 1}`);
    expect(found.tools[0].description).toHaveLength(20_000);
    expect(found.skipped).toHaveLength(101);
    expect(found.skipped[0]).toBe(`tool_${MAX_DISCOVERED_TOOLS}`);
    expect(found.skipped.at(-1)).toBe("… and 50 more");
  });
});
