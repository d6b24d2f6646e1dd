import { describe, expect, it } from "vitest";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { composeInstructions } from "@/lib/mcp/visibility/filter-view";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { buildResourceCatalog } from "@/lib/resources/resource-catalog";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { createConnector, createServer, insertStoredResourceRow } from "@/tests/helpers/resource-scenario";

/**
 * Seed 004 "Stateful sessions": in the default stateless mode the resource set and the
 * initialize instructions are computed for every request. Snapshots are cached per org config
 * version, so every change, including rows written to mcp_resources by plain SQL, must show
 * on the very next request.
 */

async function resourcesOf(serverId: string): Promise<string[]> {
  const view = await resolveCallerView(INSTANCE_CALLER, serverId);
  expect(view).not.toBeNull();
  return buildResourceCatalog(view!, composeInstructions(view!)).list().map((r) => r.uri);
}

describe("stateless mode: the snapshot follows every change on the next request", () => {
  it("an instructions change made through the API shows in the next composed instructions", async () => {
    const t = await createTenant();
    const connectorId = await createConnector(t, "CRM", { instructions: "Old notes.", tools: [{ name: "get_customer" }] });
    const serverId = await createServer(t, [connectorId]);
    const before = await resolveCallerView(INSTANCE_CALLER, serverId);
    expect(composeInstructions(before!)).toContain("Old notes.");

    await api(t.admin.token).patch(`/api/v1/connectors/${connectorId}`, { instructions: "New notes." });
    const after = await resolveCallerView(INSTANCE_CALLER, serverId);
    expect(composeInstructions(after!)).toContain("New notes.");
    expect(composeInstructions(after!)).not.toContain("Old notes.");
  });

  it("a row inserted into mcp_resources by plain SQL is served on the next request, and gone after a SQL delete", async () => {
    const t = await createTenant();
    const connectorId = await createConnector(t, "CRM", { tools: [{ name: "get_customer" }] });
    const serverId = await createServer(t, [connectorId]);
    expect(await resourcesOf(serverId)).not.toContain("crm://imported");

    await insertStoredResourceRow(connectorId, { uri: "crm://imported", fetchConfig: { text: "hello" } });
    expect(await resourcesOf(serverId)).toContain("crm://imported");

    await db().$executeRaw`DELETE FROM mcp_resources WHERE connector_id = ${connectorId} AND uri = 'crm://imported'`;
    expect(await resourcesOf(serverId)).not.toContain("crm://imported");
  });
});

describe("plain SQL on mcp_resources bumps the org's config version once per statement", () => {
  async function versionOf(orgId: string): Promise<number> {
    const org = await db().organization.findUniqueOrThrow({ where: { id: orgId }, select: { configVersion: true } });
    return org.configVersion;
  }

  it("a 50-row insert, update and delete each move the version by exactly one, and the view follows", async () => {
    const t = await createTenant();
    const connectorId = await createConnector(t, "CRM", { tools: [{ name: "get_customer" }] });
    const serverId = await createServer(t, [connectorId]);
    const v0 = await versionOf(t.org.id);

    await db().$executeRaw`INSERT INTO mcp_resources (connector_id, uri, name)
      SELECT ${connectorId}, 'crm://bulk/' || n, 'bulk ' || n FROM generate_series(1, 50) AS n`;
    expect(await versionOf(t.org.id)).toBe(v0 + 1);
    expect((await resourcesOf(serverId)).filter((uri) => uri.startsWith("crm://bulk/"))).toHaveLength(50);

    await db().$executeRaw`UPDATE mcp_resources SET name = name || ' (renamed)' WHERE connector_id = ${connectorId}`;
    expect(await versionOf(t.org.id)).toBe(v0 + 2);

    await db().$executeRaw`DELETE FROM mcp_resources WHERE connector_id = ${connectorId}`;
    expect(await versionOf(t.org.id)).toBe(v0 + 3);
    expect((await resourcesOf(serverId)).filter((uri) => uri.startsWith("crm://bulk/"))).toHaveLength(0);
  });
});
