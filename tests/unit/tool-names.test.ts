import { describe, expect, it } from "vitest";
import { exposedToolNames, MAX_TOOL_NAME_LENGTH } from "@/lib/mcp/surface/tool-names";

describe("tool names: unique per server, prefixed with the connector's slug on a clash, at most 64 characters", () => {
  it("keeps names that only one connector uses", () => {
    expect(exposedToolNames([{ connectorSlug: "crm", name: "get_customer" }, { connectorSlug: "docs", name: "search" }])).toEqual([
      "get_customer",
      "search",
    ]);
  });

  it("prefixes every claimant of a shared name with its connector slug", () => {
    const names = exposedToolNames([
      { connectorSlug: "crm", name: "search" },
      { connectorSlug: "docs-v2", name: "search" },
      { connectorSlug: "crm", name: "get" },
    ]);
    expect(names).toEqual(["crm_search", "docs_v2_search", "get"]);
  });

  it("never lets a prefixed name collide with another tool's plain name", () => {
    const names = exposedToolNames([
      { connectorSlug: "a", name: "x" },
      { connectorSlug: "b", name: "x" },
      { connectorSlug: "c", name: "a_x" },
    ]);
    expect(new Set(names).size).toBe(3);
  });

  it("tells a prefixed name apart from an equal plain one with a number, the slug's hyphens still written _", () => {
    const names = exposedToolNames([
      { connectorSlug: "d", name: "a_b_x" },
      { connectorSlug: "a-b", name: "x" },
      { connectorSlug: "c", name: "x" },
    ]);
    expect(names).toEqual(["a_b_x", "a_b_x_2", "c_x"]);
  });

  it("cuts long names to 64 characters and keeps two long names apart", () => {
    const long = "t".repeat(70);
    const names = exposedToolNames([
      { connectorSlug: "one", name: long + "1" },
      { connectorSlug: "two", name: long + "2" },
    ]);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(names[0]).not.toEqual(names[1]);
  });
});
