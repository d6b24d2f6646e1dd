import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { watch } from "@/lib/config-version/config-version";
import { api, request, type ApiResponse } from "@/tests/helpers/api";
import { browserSessionOf, createApiKeyFor, createTenant, createUser, INSTANCE_KEY, type Tenant, uniqueSuffix } from "@/tests/helpers/factories";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { startHttpApi, type HttpApiStub } from "@/tests/helpers/http-api-stub";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { startV1Upstream, type RecordedUpstream } from "@/tests/helpers/runtime-upstreams";

/**
 * Issue 11 point 4: every configuration-changing operation of the admin API bumps its
 * organization's configuration version exactly once, in its own transaction, and is announced
 * once after it (here without REDIS_URL: to this instance's watchers); operations that change
 * no configuration (file upload, key creation, invitations, tool calls) neither bump nor
 * announce. Driven through the API's route handlers, as a client would.
 */

let heard: string[] = [];
let stopWatching: () => void;
let app: RouteServer;
let httpApi: HttpApiStub;
let upstream: RecordedUpstream;

beforeAll(async () => {
  useTempFilesDir();
  stopWatching = watch((orgId) => heard.push(orgId));
  [app, httpApi, upstream] = await Promise.all([startRouteServer(), startHttpApi(), startV1Upstream()]);
  httpApi.route("GET", "/search", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("found"));
});
afterAll(async () => {
  stopWatching();
  await Promise.all([app.close(), httpApi.close(), upstream.stop()]);
});

const version = async (orgId: string) => (await db().organization.findUniqueOrThrow({ where: { id: orgId }, select: { configVersion: true } })).configVersion;

/** Runs one operation: it must answer `status`, and bump and announce `orgId` `bumps` times (0 or 1). */
async function expectChange(orgId: string, status: number, operation: () => Promise<ApiResponse>, bumps: 0 | 1 = 1): Promise<ApiResponse> {
  const before = await version(orgId);
  heard = [];
  const res = await operation();
  expect(res.status, res.text).toBe(status);
  expect(await version(orgId)).toBe(before + bumps);
  expect(heard.filter((id) => id === orgId)).toHaveLength(bumps);
  return res;
}

const noChange = (orgId: string, status: number, operation: () => Promise<ApiResponse>) => expectChange(orgId, status, operation, 0);

function httpConnector(t: Tenant, name = `C ${uniqueSuffix()}`) {
  return api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, {
    type: "http",
    name,
    config: { baseUrl: httpApi.origin },
    tools: [{ name: "search", request: { method: "GET", path: "/search" } }],
  });
}

describe("configuration changes bump the organization's version once and are announced once", () => {
  it("connectors: create (http and mcp), update, replace tools, reload, delete", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    const created = await expectChange(t.org.id, 201, () => httpConnector(t));
    const id = created.body.id as string;
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/connectors/${id}`, { name: "Renamed" }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/connectors/${id}`, { tools: [{ name: "find", request: { method: "GET", path: "/search" } }] }));
    const mcp = await expectChange(t.org.id, 201, () => admin.post(`/api/v1/orgs/${t.org.id}/connectors`, { type: "mcp", name: "Upstream", config: { url: upstream.url } }));
    await expectChange(t.org.id, 200, () => admin.post(`/api/v1/connectors/${mcp.body.id}/reload`));
    await expectChange(t.org.id, 204, () => admin.delete(`/api/v1/connectors/${id}`));
  });

  it("stored resources and the knowledge graph", async () => {
    const t = await createTenant({ knowledgeGraphEnabled: true });
    const admin = api(t.admin.token);
    const connector = (await httpConnector(t)).body.id as string;
    const resource = await expectChange(t.org.id, 201, () => admin.post(`/api/v1/connectors/${connector}/resources`, { uri: "crm://schema", name: "Schema" }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/resources/${resource.body.id}`, { name: "Schema v2" }));
    await expectChange(t.org.id, 204, () => admin.delete(`/api/v1/resources/${resource.body.id}`));
    const graph = { entities: [{ key: "customer", label: "Customer" }], relations: [{ from: "customer", to: "customer", kind: "refers" }] };
    await expectChange(t.org.id, 200, () => admin.put(`/api/v1/connectors/${connector}/graph`, graph));
  });

  it("servers and their connector sets, skills", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    const [a, b] = [(await httpConnector(t)).body.id as string, (await httpConnector(t)).body.id as string];
    const server = await expectChange(t.org.id, 201, () => admin.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [a] }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/servers/${server.body.id}`, { instructions: "Be brief." }));
    await expectChange(t.org.id, 200, () => admin.put(`/api/v1/servers/${server.body.id}/connectors`, { connectorIds: [a, b] }));
    await expectChange(t.org.id, 204, () => admin.delete(`/api/v1/servers/${server.body.id}`));
    const skill = await expectChange(t.org.id, 201, () => admin.post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "Tone", content: "Be kind." }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/skills/${skill.body.id}`, { applied: false }));
    await expectChange(t.org.id, 204, () => admin.delete(`/api/v1/skills/${skill.body.id}`));
  });

  it("roles and their tools, workspaces and their settings, workspace members and their roles", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    const connector = (await httpConnector(t)).body.id as string;
    const role = await expectChange(t.org.id, 201, () => admin.post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Reader", tools: [] }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/roles/${role.body.id}`, { tools: [{ connectorId: connector, tool: "search" }] }));
    await expectChange(t.org.id, 200, () => admin.patch(`/api/v1/workspaces/${t.workspace.id}`, { toolWhitelistsEnabled: true }));
    const members = `/api/v1/workspaces/${t.workspace.id}/members`;
    await expectChange(t.org.id, 200, () => admin.patch(`${members}/${t.member.user.id}`, { mcpRoleId: role.body.id }));
    await expectChange(t.org.id, 204, () => admin.delete(`${members}/${t.member.user.id}`));
    await expectChange(t.org.id, 201, () => admin.post(members, { userId: t.member.user.id }));
    await expectChange(t.org.id, 204, () => admin.delete(`/api/v1/roles/${role.body.id}`));
    // An API key reaches only its own workspace: the instance credential handles the new one.
    const ws = await expectChange(t.org.id, 201, () => api(INSTANCE_KEY).post(`/api/v1/orgs/${t.org.id}/workspaces`, { name: "Second", slug: `ws-${uniqueSuffix()}` }));
    await expectChange(t.org.id, 204, () => api(INSTANCE_KEY).delete(`/api/v1/workspaces/${ws.body.id}`));
  });

  it("organization settings and members: update, add, change role, remove, user created into the org, invitation accepted", async () => {
    const t = await createTenant();
    await expectChange(t.org.id, 200, () => api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}`, { toolAuditDetail: "arguments" }));
    const user = await createUser("joiner");
    await expectChange(t.org.id, 201, () => api(INSTANCE_KEY).post(`/api/v1/orgs/${t.org.id}/members`, { userId: user.id, role: "member" }));
    await expectChange(t.org.id, 200, () => api(t.admin.token).patch(`/api/v1/orgs/${t.org.id}/members/${user.id}`, { role: "admin" }));
    await expectChange(t.org.id, 204, () => api(t.admin.token).delete(`/api/v1/orgs/${t.org.id}/members/${user.id}`));
    await expectChange(t.org.id, 201, () => api(t.admin.token).post("/api/v1/users", { email: `new-${uniqueSuffix()}@example.test`, orgId: t.org.id }));
    const invitee = await createUser("invitee");
    const invited = await noChange(t.org.id, 201, () => api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/invitations`, { email: invitee.email, role: "member", workspaceIds: [] }));
    const headers = await browserSessionOf(invitee);
    await expectChange(t.org.id, 200, () => request("POST", `/api/v1/invitations/${invited.body.id}/accept`, null, undefined, { headers }));
  });

  it("revoking an API key bumps (resolved keys are cached by the version); revoking it again changes nothing", async () => {
    const t = await createTenant();
    await expectChange(t.org.id, 204, () => api(t.member.token).delete(`/api/v1/api-keys/${t.member.apiKeyId}`));
    await noChange(t.org.id, 204, () => api(t.owner.token).delete(`/api/v1/api-keys/${t.member.apiKeyId}`));
  });

  it("deleting an organization is announced (its live sessions then find it gone)", async () => {
    const created = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Short-lived", slug: `org-${uniqueSuffix()}` });
    expect(created.status).toBe(201);
    heard = [];
    expect((await api(INSTANCE_KEY).delete(`/api/v1/orgs/${created.body.id}`)).status).toBe(204);
    expect(heard).toEqual([created.body.id]);
  });
});

describe("operations that change no configuration neither bump nor announce", () => {
  it("key creation, file upload, rename and deletion, invitations made, declined and revoked", async () => {
    const t = await createTenant();
    await noChange(t.org.id, 201, () => api(t.member.token).post(`/api/v1/workspaces/${t.workspace.id}/api-keys`, { name: "laptop" }));
    const file = await noChange(t.org.id, 201, () => upload(t.member.token, t.workspace.id, { bytes: "a,b\n1,2\n", name: "data.csv", type: "text/csv" }));
    await noChange(t.org.id, 200, () => api(t.member.token).patch(`/api/v1/files/${file.body.id}`, { name: "renamed.csv" }));
    await noChange(t.org.id, 204, () => api(t.member.token).delete(`/api/v1/files/${file.body.id}`));
    const invitee = await createUser("invitee");
    const invitation = (email: string) => api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/invitations`, { email, role: "member", workspaceIds: [] });
    const declined = await noChange(t.org.id, 201, () => invitation(invitee.email));
    const headers = await browserSessionOf(invitee);
    await noChange(t.org.id, 204, () => request("POST", `/api/v1/invitations/${declined.body.id}/decline`, null, undefined, { headers }));
    const revoked = await noChange(t.org.id, 201, () => invitation(`someone-${uniqueSuffix()}@example.test`));
    await noChange(t.org.id, 204, () => api(t.admin.token).delete(`/api/v1/invitations/${revoked.body.id}`));
  });

  it("a tool call over MCP", async () => {
    const t = await createTenant();
    const connector = (await httpConnector(t)).body.id as string;
    const server = (await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S", connectorIds: [connector] })).body.id as string;
    const { token } = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: {} } };
    const before = await version(t.org.id);
    heard = [];
    const answer = await postRaw(`${app.origin}/mcp/${server}`, call, { authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-11-25" });
    expect(answer.status).toBe(200);
    expect(answer.body.result.content).toEqual([{ type: "text", text: "found" }]);
    expect(await version(t.org.id)).toBe(before);
    expect(heard).toEqual([]);
  });
});
