import { describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createMcpServer, createTenant, INSTANCE_KEY, type Tenant } from "@/tests/helpers/factories";
import { callerFromBearer } from "@/lib/auth/resolve-bearer";

/**
 * What the scattered copies of "who may do what" let through (issue 23), each now refused by the
 * one permission table (lib/permissions/table.ts).
 */

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;
const inWorkspace = (t: Tenant) => ({ id: t.workspace.id, orgId: t.org.id });

describe("a key pinned to one MCP server", () => {
  it("reaches neither its workspace's members and their roles, nor skills, other keys, usage or audit", async () => {
    const t = await createTenant();
    const own = await createMcpServer(t, [], "Own");
    const pinnedKey = await createApiKeyFor(t.admin.user, inWorkspace(t), { serverId: own });
    const pinned = api(pinnedKey.token);
    const ws = `/api/v1/workspaces/${t.workspace.id}`;
    const org = `/api/v1/orgs/${t.org.id}`;

    const refused = [
      await pinned.get(`${ws}/members`),
      await pinned.patch(`${ws}/members/${t.member.user.id}`, { mcpRoleId: null }),
      await pinned.delete(`${ws}/members/${t.member.user.id}`),
      await pinned.get(`${org}/members`),
      await pinned.patch(`${org}/members/${t.member.user.id}`, { role: "admin" }),
      await pinned.get(`${org}/roles`),
      await pinned.post(`${org}/roles`, { name: "Taken", tools: [] }),
      await pinned.get(`${ws}/skills`),
      await pinned.post(`${ws}/skills`, { name: "s", content: "x" }),
      await pinned.get(`${ws}/usage`),
      await pinned.get(`${org}/usage`),
      await pinned.get(`${org}/audit`),
      await pinned.post(keysPath(t.workspace.id), { name: "for the member", userId: t.member.user.id }),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));

    // Other people's keys (and its user's unpinned one) are not there to see or revoke; its own server still is.
    const listed = await pinned.get(keysPath(t.workspace.id));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toEqual([pinnedKey.apiKeyId]);
    expect((await pinned.delete(`/api/v1/api-keys/${t.admin.apiKeyId}`)).status).toBe(404);
    expect((await pinned.delete(`/api/v1/api-keys/${t.member.apiKeyId}`)).status).toBe(404);
    expect((await api(t.member.token).get(`${org}`)).status).toBe(200);
    expect((await pinned.get(`/api/v1/servers/${own}`)).status).toBe(200);
    const sibling = await pinned.post(keysPath(t.workspace.id), { name: "sibling" });
    expect(sibling.status).toBe(201);
    expect(sibling.body.serverId).toBe(own);
    expect((await pinned.get(keysPath(t.workspace.id))).body.items.map((k: { id: string }) => k.id).sort()).toEqual([pinnedKey.apiKeyId, sibling.body.id].sort());
    // The workspace member it tried to remove is still there.
    expect((await api(t.admin.token).get(`${ws}/members`)).body.items.map((m: { userId: string }) => m.userId)).toContain(t.member.user.id);
  });
});

describe("owners are reached by owners only", () => {
  it("an admin gets 403 revoking an owner's key or removing an owner from a workspace; an owner may", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    expect((await admin.delete(`/api/v1/api-keys/${t.owner.apiKeyId}`)).status).toBe(403);
    const bulk = await admin.post("/api/v1/api-keys/bulk-revoke", { ids: [t.owner.apiKeyId] });
    expect(bulk.body.results).toEqual([expect.objectContaining({ id: t.owner.apiKeyId, ok: false, error: expect.objectContaining({ code: "forbidden" }) })]);
    expect((await admin.delete(`/api/v1/workspaces/${t.workspace.id}/members/${t.owner.user.id}`)).status).toBe(403);
    // Nothing changed: the owner's key works, the owner is still in the workspace.
    expect((await api(t.owner.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
    const members = await admin.get(`/api/v1/workspaces/${t.workspace.id}/members`);
    expect(members.body.items.map((m: { userId: string }) => m.userId)).toContain(t.owner.user.id);
    // An admin still revokes a member's key; an owner another owner's.
    expect((await admin.delete(`/api/v1/api-keys/${t.member.apiKeyId}`)).status).toBe(204);
    const second = await createApiKeyFor(t.owner.user, inWorkspace(t));
    expect((await api(INSTANCE_KEY).patch(`/api/v1/orgs/${t.org.id}/members/${t.admin.user.id}`, { role: "owner" })).status).toBe(200);
    expect((await admin.delete(`/api/v1/api-keys/${second.apiKeyId}`)).status).toBe(204);
  });
});

describe("a key an admin issues for someone", () => {
  it("acts at most as an admin once its user is made owner; the owner's own key acts as owner", async () => {
    const t = await createTenant();
    const made = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "for the member", userId: t.member.user.id });
    expect(made.status).toBe(201);
    const promoted = await api(t.owner.token).patch(`/api/v1/orgs/${t.org.id}/members/${t.member.user.id}`, { role: "owner" });
    expect(promoted.status).toBe(200);

    const key = api(made.body.key);
    // As an admin it manages the org, but cannot reach owners: no owner role granted, no org deleted.
    expect((await key.get(`/api/v1/orgs/${t.org.id}/members`)).status).toBe(200);
    expect((await key.patch(`/api/v1/orgs/${t.org.id}/members/${t.admin.user.id}`, { role: "owner" })).status).toBe(403);
    expect((await key.patch(`/api/v1/orgs/${t.org.id}`, { auditRetentionDays: 1 })).status).toBe(403);
    expect((await key.delete(`/api/v1/api-keys/${t.owner.apiKeyId}`)).status).toBe(403);
    // A key it issues keeps the cap.
    const child = await key.post(keysPath(t.workspace.id), { name: "child" });
    expect(child.status).toBe(201);
    expect((await api(child.body.key).patch(`/api/v1/orgs/${t.org.id}/members/${t.admin.user.id}`, { role: "owner" })).status).toBe(403);

    // The promoted member's own key (not issued by an admin) acts as the owner they now are.
    expect((await api(t.member.token).patch(`/api/v1/orgs/${t.org.id}/members/${t.admin.user.id}`, { role: "owner" })).status).toBe(200);
  });
});

describe("revoking a key", () => {
  it("revokes every key it issued, and theirs, on their very next request — also where they were resolved before", async () => {
    const t = await createTenant();
    const parent = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "parent" });
    const child = await api(parent.body.key).post(keysPath(t.workspace.id), { name: "child", userId: t.member.user.id });
    const grandchild = await api(child.body.key).post(keysPath(t.workspace.id), { name: "grandchild" });
    expect([parent.status, child.status, grandchild.status]).toEqual([201, 201, 201]);
    const sibling = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "not issued by the parent" });
    // Each has been used (so resolved and remembered by this instance's cache).
    for (const k of [parent, child, grandchild, sibling]) expect((await api(k.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
    expect(await callerFromBearer(grandchild.body.key)).not.toBeNull();

    expect((await api(t.admin.token).delete(`/api/v1/api-keys/${parent.body.id}`)).status).toBe(204);
    for (const k of [parent, child, grandchild]) expect((await api(k.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    expect(await callerFromBearer(grandchild.body.key)).toBeNull();
    expect((await api(sibling.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
    const listed = await api(t.admin.token).get(keysPath(t.workspace.id));
    const revoked = listed.body.items.filter((k: { revokedAt: string | null }) => k.revokedAt !== null).map((k: { id: string }) => k.id);
    expect(revoked.sort()).toEqual([parent.body.id, child.body.id, grandchild.body.id].sort());
  });

  it("a key being revoked cannot issue one that survives it: of concurrent issue and revoke, no live child remains", async () => {
    const t = await createTenant();
    for (let round = 0; round < 5; round++) {
      const parent = await api(t.admin.token).post(keysPath(t.workspace.id), { name: `parent ${round}` });
      const [issued] = await Promise.all([
        api(parent.body.key).post(keysPath(t.workspace.id), { name: `child ${round}` }),
        api(t.admin.token).delete(`/api/v1/api-keys/${parent.body.id}`),
      ]);
      if (issued.status === 201) expect((await api(issued.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
      else expect(issued.status).toBe(401);
    }
  });

  it("removing a member from the workspace revokes the keys their keys issued", async () => {
    const t = await createTenant();
    const child = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "for the member", userId: t.member.user.id });
    expect(child.status).toBe(201);
    expect((await api(t.owner.token).delete(`/api/v1/workspaces/${t.workspace.id}/members/${t.admin.user.id}`)).status).toBe(204);
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    expect((await api(child.body.key).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(401);
    expect((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
  });
});
