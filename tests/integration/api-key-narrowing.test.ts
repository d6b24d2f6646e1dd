import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createMcpServer, createTenant } from "@/tests/helpers/factories";

/**
 * A key issues keys no wider than itself: not for another server (api-keys.test.ts), and not
 * for longer than it lives — else a key given out for a day could mint itself one forever.
 */

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;
const DAY_MS = 24 * 60 * 60 * 1000;

describe("API keys issued by an API key", () => {
  it("an expiring key cannot issue a key that outlives it; left out, the new key expires with it", async () => {
    const t = await createTenant();
    const expiresAt = new Date(Date.now() + DAY_MS);
    const shortLived = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id }, { expiresAt });
    const forever = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "forever", expiresAt: null });
    expect(forever.status).toBe(403);
    const later = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "later", expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() });
    expect(later.status).toBe(403);
    const inherited = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "inherited" });
    expect(inherited.status).toBe(201);
    expect(Date.parse(inherited.body.expiresAt)).toBe(expiresAt.getTime());
    const sooner = await api(shortLived.token).post(keysPath(t.workspace.id), { name: "sooner", expiresAt: new Date(Date.now() + DAY_MS / 2).toISOString() });
    expect(sooner.status).toBe(201);
    expect(await db().apiKey.count({ where: { workspaceId: t.workspace.id, name: { in: ["forever", "later"] } } })).toBe(0);
  });

  it("a key without expiry still issues keys without one", async () => {
    const t = await createTenant();
    const res = await api(t.member.token).post(keysPath(t.workspace.id), { name: "open" });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBeNull();
  });
});

describe("a key pinned to one MCP server, in the admin API", () => {
  it("reaches only its own server: another server of the workspace is not found, is not listed, and no new one is made", async () => {
    const t = await createTenant();
    const own = await createMcpServer(t, [], "Own");
    const other = await createMcpServer(t, [], "Other");
    const pinned = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: own });
    const key = api(pinned.token);

    expect((await key.get(`/api/v1/servers/${own}`)).status).toBe(200);
    expect((await key.patch(`/api/v1/servers/${own}`, { name: "Own, renamed" })).status).toBe(200);
    expect((await key.get(`/api/v1/servers/${other}`)).status).toBe(404);
    expect((await key.patch(`/api/v1/servers/${other}`, { name: "Taken over" })).status).toBe(404);
    expect((await key.put(`/api/v1/servers/${other}/connectors`, { connectorIds: [] })).status).toBe(404);
    expect((await key.delete(`/api/v1/servers/${other}`)).status).toBe(404);
    const listed = await key.get(`/api/v1/workspaces/${t.workspace.id}/servers`);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([own]);
    expect((await key.post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "New" })).status).toBe(403);

    const untouched = await api(t.admin.token).get(`/api/v1/servers/${other}`);
    expect(untouched.body.name).toBe("Other");
    expect((await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/servers`)).body.items).toHaveLength(2);
  });
});

describe("a key pinned to one MCP server, and its workspace", () => {
  it("can neither delete the workspace (with every other server in it) nor change its settings; the servers stay", async () => {
    const t = await createTenant();
    const own = await createMcpServer(t, [], "Own");
    const other = await createMcpServer(t, [], "Other");
    const pinned = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id }, { serverId: own });
    const key = api(pinned.token);

    const patched = await key.patch(`/api/v1/workspaces/${t.workspace.id}`, { toolWhitelistsEnabled: true, name: "Taken over" });
    expect(patched.status).toBe(403);
    expect(patched.body.detail).toMatch(/pinned to one MCP server/);
    const deleted = await key.delete(`/api/v1/workspaces/${t.workspace.id}`);
    expect(deleted.status).toBe(403);

    const workspace = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}`);
    expect(workspace.status).toBe(200);
    expect(workspace.body).toMatchObject({ name: "Main", toolWhitelistsEnabled: false });
    expect((await api(t.admin.token).get(`/api/v1/servers/${other}`)).status).toBe(200);
    // The same admin's unpinned key still may.
    const unpinned = await createApiKeyFor(t.admin.user, { id: t.workspace.id, orgId: t.org.id });
    expect((await api(unpinned.token).patch(`/api/v1/workspaces/${t.workspace.id}`, { name: "Renamed" })).status).toBe(200);
  });
});
