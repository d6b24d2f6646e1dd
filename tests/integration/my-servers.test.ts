import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";
import { hasUsedAKey, listMyServers } from "@/lib/servers/my-servers";
import { createApiKeyFor, createTenant, createUser, createWorkspace, makeRole, makeServer, type Tenant } from "@/tests/helpers/factories";
import { createConnector, createServer } from "@/tests/helpers/resource-scenario";

const BASE = "https://mcp.example.test";
const asUser = (userId: string) => ({ kind: "user" as const, userId, apiKey: null });

/** A role allowing only `tools` of `connectorId`, given to the tenant's member. */
async function giveMemberRole(t: Tenant, connectorId: string, tools: string[]) {
  const role = await makeRole(t, { name: "Reader", tools: tools.map((tool): [string, string] => [connectorId, tool]) });
  await db().workspaceMember.updateMany({ where: { orgId: t.org.id, workspaceId: t.workspace.id, userId: t.member.user.id }, data: { mcpRoleId: role.id } });
}

describe("My MCP servers (lib/servers/my-servers.ts)", () => {
  it("lists the servers a member can use with the tools their role gives and their own live keys, by the endpoint's rule", async () => {
    const t = await createTenant();
    const connectorId = await createConnector(t, "CRM", { tools: [{ name: "get_customer" }, { name: "delete_customer" }] });
    const serverId = await createServer(t, [connectorId]);
    await giveMemberRole(t, connectorId, ["get_customer"]);
    // A server in a workspace the member is not in, and another org's server: not theirs.
    const other = await createWorkspace(t.org.id);
    await makeServer(t, { workspaceId: other.id, name: "Elsewhere" });
    const stranger = await createTenant();
    await createServer(stranger, [await createConnector(stranger, "Other", { tools: [{ name: "x" }] })]);
    const revoked = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id });
    await db().apiKey.updateMany({ where: { id: revoked.apiKeyId, orgId: t.org.id }, data: { revokedAt: new Date() } });

    const servers = await listMyServers(asUser(t.member.user.id), BASE);
    expect(servers.map((s) => s.name)).toEqual(["Support"]);
    const [server] = servers;
    expect(server.url).toBe(`${BASE}/mcp/${serverId}`);
    expect(server.workspace.id).toBe(t.workspace.id);
    expect(server.tools.map((tool) => tool.connectorName)).toEqual(["CRM"]);
    expect(server.tools).toHaveLength(1);
    expect(server.tools[0].name).toContain("get_customer");
    expect(server.keys.map((k) => k.id)).toEqual([t.member.apiKeyId]);

    const adminView = await listMyServers(asUser(t.admin.user.id), BASE);
    expect(adminView.find((s) => s.id === serverId)?.tools).toHaveLength(2);
  });

  it("a server the member's workspace fails closed on (whitelists on, no role) is not listed as usable with tools", async () => {
    const t = await createTenant({ toolWhitelistsEnabled: true });
    await createServer(t, [await createConnector(t, "CRM", { tools: [{ name: "get_customer" }] })]);
    const [server] = await listMyServers(asUser(t.member.user.id), BASE);
    expect(server.tools).toEqual([]);
    const outsider = await createUser("outsider");
    expect(await listMyServers(asUser(outsider.id), BASE)).toEqual([]);
  });

  it("'Connect an MCP client' counts as done once one of the person's keys made a call", async () => {
    const t = await createTenant();
    expect(await hasUsedAKey(asUser(t.member.user.id))).toBe(false);
    expect(await callerFromBearer(t.member.token)).not.toBeNull();
    await expect.poll(() => hasUsedAKey(asUser(t.member.user.id))).toBe(true);
    expect(await hasUsedAKey(asUser(t.admin.user.id))).toBe(false);
  });
});
