import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/log";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV2 } from "@/tests/helpers/mcp-clients";
import { startMcpUpstream, type Upstream } from "@/tests/helpers/mcp-upstream";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * An upstream decides how many prompts, resources and templates it lists; we decide how many
 * we hold and publish. One listing 100,000 of them gets at most UPSTREAM_CATALOG_MAX_ENTRIES
 * kept (prompts, then templates, then resources, in its order), no page past the cap asked
 * for, and a log line; a server of many connectors publishes at most
 * UPSTREAM_CATALOG_MAX_PER_SERVER of them in all.
 */

let app: RouteServer;
const upstreams: Upstream[] = [];
beforeAll(async () => {
  app = await startRouteServer();
}, 60_000);
afterEach(() => {
  delete process.env.UPSTREAM_CATALOG_MAX_PER_SERVER;
  vi.restoreAllMocks();
});
afterAll(async () => {
  await Promise.all([app.close(), ...upstreams.map((u) => u.close())]);
});

async function upstream(catalog: NonNullable<Parameters<typeof startMcpUpstream>[0]>["catalog"]) {
  const started = await startMcpUpstream({ tools: [{ name: "lookup" }], catalog });
  upstreams.push(started);
  return started;
}

/** A server of one `mcp` connector per upstream, and a 2026-07-28 client of it (paged lists walked whole). */
async function serve(...of: Upstream[]) {
  const t = await createTenant();
  const ids: string[] = [];
  for (const [i, u] of of.entries()) {
    const created = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: `Gen ${i}`, type: "mcp", config: { url: u.url } });
    expect(created.status, created.text).toBe(201);
    ids.push(created.body.id);
  }
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Big", connectorIds: ids });
  expect(server.status, server.text).toBe(201);
  return connectV2(`${app.origin}/mcp/${server.body.id}`, t.admin.token);
}

const upstreamUris = (resources: Array<{ uri: string }>) => resources.map((r) => r.uri).filter((u) => u.startsWith("gen://"));

describe("the upstream catalog is capped", () => {
  it("100,000 templates and 100,000 resources: 2,000 kept in the upstream's order, prompts first, no page past the cap fetched, one log line", async () => {
    const warn = vi.spyOn(logger, "warn");
    const big = await upstream({ prompts: 10, templates: 100_000, resources: 100_000, pageSize: 5_000 });
    const client = await serve(big);
    try {
      expect((await client.client.listPrompts()).prompts.map((p) => p.name)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
      const templates = (await client.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toEqual(Array.from({ length: 1990 }, (_, i) => `gen://t${i}/{id}`));
      expect(upstreamUris((await client.client.listResources()).resources)).toEqual([]);
      // Each list stopped within its first page of 5,000; nothing of the other 95,000 was asked for.
      expect(big.catalogPages).toEqual({ "prompts/list": 1, "resources/templates/list": 1, "resources/list": 1 });
      const line = warn.mock.calls.find((c) => String(c[1]).includes("UPSTREAM_CATALOG_MAX_ENTRIES=2000"));
      expect(line?.[0]).toMatchObject({ cap: 2000, kept: { prompts: 10, resourceTemplates: 1990, resources: 0 }, dropped: { prompts: 0, resourceTemplates: 10, resources: 2000 }, morePagesNotFetched: true });
    } finally {
      await client.close();
    }
  });

  it("resources over pages: the first ones kept across pages, a template still reached through its URI", async () => {
    const paged = await upstream({ templates: 5, resources: 100_000, pageSize: 1_000 });
    const client = await serve(paged);
    try {
      expect((await client.client.listResourceTemplates()).resourceTemplates).toHaveLength(5);
      expect(upstreamUris((await client.client.listResources()).resources)).toEqual(Array.from({ length: 1995 }, (_, i) => `gen://r/${i}`));
      expect(paged.catalogPages["resources/list"]).toBeLessThanOrEqual(3);
      expect((await client.client.readResource({ uri: "gen://r/1994" })).contents[0]).toMatchObject({ text: "gen://r/1994" });
      expect((await client.client.readResource({ uri: "gen://t4/abc" })).contents[0]).toMatchObject({ text: "gen://t4/abc" });
    } finally {
      await client.close();
    }
  });

  it("a server of two connectors publishes at most UPSTREAM_CATALOG_MAX_PER_SERVER in all: the first connector's, then what is left of the second's", async () => {
    // A cap of 2500 (default 10000) so two connectors of 2000 prompts each pass it.
    process.env.UPSTREAM_CATALOG_MAX_PER_SERVER = "2500";
    const warn = vi.spyOn(logger, "warn");
    const [a, b] = await Promise.all([upstream({ prompts: 2000, pageSize: 1000, prefix: "a" }), upstream({ prompts: 2000, pageSize: 1000, prefix: "b" })]);
    const client = await serve(a, b);
    try {
      const names = (await client.client.listPrompts()).prompts.map((p) => p.name);
      expect(names).toEqual([...Array.from({ length: 2000 }, (_, i) => `ap${i}`), ...Array.from({ length: 500 }, (_, i) => `bp${i}`)]);
      expect(warn.mock.calls.find((c) => String(c[1]).includes("UPSTREAM_CATALOG_MAX_PER_SERVER=2500"))?.[0]).toMatchObject({ cap: 2500, dropped: 1500 });
    } finally {
      await client.close();
    }
  });
});
