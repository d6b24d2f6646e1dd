import { describe, expect, it } from "vitest";
import { breadcrumbsFor } from "@/components/shell/breadcrumbs";
import { orgNavItems, personalNavItems, workspaceNavItems } from "@/components/shell/nav-items";
import type { OverviewOrg } from "@/lib/shell/overview";

const org = {
  id: "o1",
  name: "Acme",
  slug: "acme",
  role: "admin",
  connectorCount: 0,
  workspaces: [{ id: "w1", name: "Helpdesk", slug: "helpdesk", serverCount: 0 }],
} satisfies OverviewOrg;

describe("navigation", () => {
  it("names every place once: an admin sees no two entries with the same label", () => {
    const labels = [...personalNavItems(0), ...orgNavItems("o1", true), ...workspaceNavItems("w1", true)].map((item) => item.label);
    expect(labels.filter((label, index) => labels.indexOf(label) !== index)).toEqual([]);
    expect(labels).toContain("Organization members");
    expect(labels).toContain("Workspace settings");
  });

  it("breadcrumbs lead from the organization and workspace to the section of a deeper page", () => {
    expect(breadcrumbsFor([org], "/w/w1/servers/s1")).toEqual([
      { href: "/orgs/o1", label: "Acme" },
      { href: "/w/w1", label: "Helpdesk" },
      { href: "/w/w1/servers", label: "MCP servers" },
    ]);
    expect(breadcrumbsFor([org], "/orgs/o1/connectors/c1/tools").map((c) => c.label)).toEqual(["Acme", "Connectors"]);
  });

  it("no breadcrumbs outside an organization, nor for one the person is not in", () => {
    expect(breadcrumbsFor([org], "/me/api-keys")).toEqual([]);
    expect(breadcrumbsFor([org], "/orgs/other/connectors")).toEqual([]);
  });
});

describe("plural", () => {
  it("says 1 tool, 2 tools, 1 entity, 3 entities", async () => {
    const { plural } = await import("@/components/ui/plural");
    expect([plural(1, "tool"), plural(2, "tool"), plural(0, "argument"), plural(1, "entity"), plural(3, "entity"), plural(2, "key")]).toEqual([
      "1 tool",
      "2 tools",
      "0 arguments",
      "1 entity",
      "3 entities",
      "2 keys",
    ]);
  });
});
