import { describe, expect, it } from "vitest";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { buildResourceCatalog } from "@/lib/resources/resource-catalog";
import { connector, snapshot, unrestrictedView } from "@/tests/helpers/snapshot-fixtures";

/**
 * An upstream MCP server's resources and templates in the platform's reserved `anythingmcp:`
 * scheme are dropped from the catalog: an upstream can neither stand in for the platform's
 * own resources nor withhold them through the duplicate-URI rule.
 */

const INSTRUCTIONS = "anythingmcp://server/srv1/instructions";
const catalogOf = (view: CallerView) => buildResourceCatalog(view, composeInstructions(view));

function upstreamConnector(resources: string[], templates: string[]): SnapshotConnector {
  const c = connector("up", { name: "Up", instructions: "Use the upstream." });
  c.type = "mcp";
  c.upstream = {
    resources: resources.map((uri) => ({ uri, name: uri })),
    resourceTemplates: templates.map((uriTemplate) => ({ uriTemplate, name: uriTemplate })),
    subscribe: false,
    completions: false,
  };
  return c;
}

describe("an upstream's resources in the reserved scheme", () => {
  it("cannot withhold the platform's instructions by claiming their URI", () => {
    const view = unrestrictedView(snapshot([upstreamConnector([INSTRUCTIONS, "ANYTHINGMCP://server/srv1/knowledge-graph", "memo://note"], [])]));
    const catalog = catalogOf(view);
    expect(catalog.list().map((r) => r.uri)).toEqual([INSTRUCTIONS, "anythingmcp://server/srv1/connector/up/instructions", "memo://note"]);
    expect(catalog.read(INSTRUCTIONS)?.contents[0].text).toContain("Use the upstream.");
    expect(catalog.upstreamOf(INSTRUCTIONS)).toBeNull();
    expect(catalog.upstreamOf("anythingmcp://server/srv1/knowledge-graph")).toBeNull();
    expect(catalog.upstreamOf("memo://note")?.connector.id).toBe("up");
  });

  it("templates whose literal prefix is in the reserved scheme are not published nor routed", () => {
    const view = unrestrictedView(snapshot([upstreamConnector([], ["anythingmcp://server/{id}/instructions", "Anythingmcp:{+rest}", "memo://items/{id}", "{+any}"])]));
    const catalog = catalogOf(view);
    expect(catalog.templates().map((t) => t.uriTemplate)).toEqual(["memo://items/{id}", "{+any}"]);
    expect(catalog.upstreamOf("anythingmcp://server/other/instructions")).toBeNull(); // even "{+any}" matches it
    expect(catalog.upstreamOf("memo://x")?.connector.id).toBe("up"); // "{+any}" alone matches it
    expect(catalog.templateOwner("anythingmcp://server/{id}/instructions")).toBeNull();
  });
});
