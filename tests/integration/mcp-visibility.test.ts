import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createWorkspace, INSTANCE_KEY, makeMember, makeWorkspaceMember, type Tenant } from "@/tests/helpers/factories";
import { connectV1, connectV2, postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 3 "Who sees what" with real keys over real HTTP: assigned to the server ∩ allowed by
 * the caller's MCP role; a server the caller cannot see answers exactly like a missing one.
 */

let app: RouteServer;
beforeAll(async () => {
  app = await startRouteServer();
});
afterAll(() => app.close());

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

async function connector(t: Tenant, name: string, tools: string[]) {
  const res = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    config: { baseUrl: "https://api.example.com" },
    tools: tools.map((tool) => ({ name: tool, request: { method: "GET", path: `/${tool}` } })),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** A server with CRM (get_customer, list_customers) and Billing (list_invoices). */
async function scenario(opts: { toolWhitelistsEnabled?: boolean } = {}) {
  const t = await createTenant(opts);
  const crm = await connector(t, "CRM", ["get_customer", "list_customers"]);
  const billing = await connector(t, "Billing", ["list_invoices"]);
  const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Support", connectorIds: [crm, billing] });
  expect(res.status, res.text).toBe(201);
  return { t, crm, billing, serverId: res.body.id as string };
}

const url = (serverId: string) => `${app.origin}/mcp/${serverId}`;

/** Tool names a key gets, checked identically in both eras. */
async function toolNames(serverId: string, token: string): Promise<string[]> {
  const v1 = await connectV1(url(serverId), token);
  const v2 = await connectV2(url(serverId), token);
  try {
    const [a, b] = await Promise.all([v1.client.listTools(), v2.client.listTools()]);
    const names = a.tools.map((t) => t.name);
    expect(b.tools.map((t) => t.name)).toEqual(names);
    return names;
  } finally {
    await Promise.all([v1.close(), v2.close()]);
  }
}

const ALL = ["get_customer", "list_customers", "list_invoices"];

describe("who sees what on /mcp/<serverId>", () => {
  it("an org admin and the owner see every assigned tool", async () => {
    const { t, serverId } = await scenario({ toolWhitelistsEnabled: true });
    expect(await toolNames(serverId, t.admin.token)).toEqual(ALL);
    expect(await toolNames(serverId, t.owner.token)).toEqual(ALL);
  });

  it("the instance credential sees every assigned tool", async () => {
    const { serverId } = await scenario({ toolWhitelistsEnabled: true });
    expect(await toolNames(serverId, INSTANCE_KEY)).toEqual(ALL);
  });

  it("a member with an MCP role sees exactly its whitelist", async () => {
    const { t, crm, billing, serverId } = await scenario();
    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, {
      name: "Support",
      tools: [{ connectorId: crm, tool: "get_customer" }, { connectorId: billing, tool: "list_invoices" }],
    });
    await api(t.admin.token).patch(`/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`, { mcpRoleId: role.body.id });
    expect(await toolNames(serverId, t.member.token)).toEqual(["get_customer", "list_invoices"]);
  });

  it("a member without a role sees everything in a workspace without tool whitelists", async () => {
    const { t, serverId } = await scenario({ toolWhitelistsEnabled: false });
    expect(await toolNames(serverId, t.member.token)).toEqual(ALL);
  });

  it("a member without a role sees nothing in a workspace with tool whitelists (fail closed), though the server exists", async () => {
    const { t, serverId } = await scenario({ toolWhitelistsEnabled: true });
    expect(await toolNames(serverId, t.member.token)).toEqual([]);
  });

  it("an outsider, a key of another workspace, a key pinned to another server: 404, exactly like a server that does not exist", async () => {
    const { t, serverId } = await scenario();
    const other = await createTenant();
    const otherWorkspace = await createWorkspace(t.org.id);
    await makeWorkspaceMember({ orgId: t.org.id, workspaceId: otherWorkspace.id }, { id: t.member.user.id });
    const foreignWorkspaceKey = await createApiKeyFor(t.member.user, { id: otherWorkspace.id, orgId: t.org.id });
    const second = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Other", connectorIds: [] });
    const pinnedElsewhere = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: second.body.id });
    const pinnedHere = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId });

    const missing = await postRaw(`${app.origin}/mcp/no-such-server`, INIT, { authorization: `Bearer ${t.admin.token}` });
    expect(missing.status).toBe(404);
    for (const token of [other.admin.token, foreignWorkspaceKey.token, pinnedElsewhere.token]) {
      const res = await postRaw(url(serverId), INIT, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect(await toolNames(serverId, pinnedHere.token)).toEqual(ALL);
  });

  it("a revoked key and an expired key: 401 with WWW-Authenticate, on their very next request", async () => {
    const { t, serverId } = await scenario();
    const user = await makeMember({ orgId: t.org.id }, { role: "admin", label: "late", workspace: false });
    const expired = await createApiKeyFor(user, { id: t.workspace.id, orgId: t.org.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await postRaw(url(serverId), INIT, { authorization: `Bearer ${t.admin.token}` })).status).toBe(200);
    expect((await api(t.admin.token).delete(`/api/v1/api-keys/${t.admin.apiKeyId}`)).status).toBe(204);
    for (const token of [t.admin.token, expired.token]) {
      const res = await postRaw(url(serverId), INIT, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
    }
  });
});
