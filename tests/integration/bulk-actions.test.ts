import { beforeAll, describe, expect, it } from "vitest";
import { api } from "@/tests/helpers/api";
import { upload, useTempFilesDir } from "@/tests/helpers/files";
import { createHttpConnector, createMcpRole, createTenant } from "@/tests/helpers/factories";

/** Bulk actions: the single action once per object, each audited, another tenant's objects untouched. */

beforeAll(() => {
  useTempFilesDir();
});

describe("bulk actions", () => {
  it("deletes several connectors, one audit event each; another org's connector answers not_found and stays", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const ids = [await createHttpConnector(t, "One", ["a"]), await createHttpConnector(t, "Two", ["a"]), await createHttpConnector(t, "Keep", ["a"])];
    const theirs = await createHttpConnector(other, "Theirs", ["a"]);
    const res = await api(t.admin.token).post("/api/v1/connectors/bulk-delete", { ids: [ids[0], ids[1], theirs, ids[0]] });
    expect(res.status).toBe(200);
    expect(res.body.done).toBe(2);
    expect(res.body.failed).toBe(1);
    expect(res.body.results).toEqual([
      { id: ids[0], ok: true },
      { id: ids[1], ok: true },
      { id: theirs, ok: false, error: { code: "not_found", message: expect.any(String) } },
    ]);
    const left = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/connectors`);
    expect(left.body.items.map((c: { name: string }) => c.name)).toEqual(["Keep"]);
    expect((await api(other.admin.token).get(`/api/v1/connectors/${theirs}`)).status).toBe(200);
    const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=connector.delete`);
    expect(audit.body.items.map((e: { targetId: string }) => e.targetId).sort()).toEqual([ids[0], ids[1]].sort());
  });

  it("an empty or oversized batch is a validation error", async () => {
    const t = await createTenant();
    expect((await api(t.admin.token).post("/api/v1/connectors/bulk-delete", { ids: [] })).status).toBe(422);
    expect((await api(t.admin.token).post("/api/v1/skills/bulk-delete", { ids: Array.from({ length: 201 }, (_, i) => `s${i}`) })).status).toBe(422);
  });

  it("skills, stored resources, files and API keys", async () => {
    const t = await createTenant();
    const admin = api(t.admin.token);
    const skills = await Promise.all(["A", "B"].map(async (name) => (await admin.post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name, content: "x" })).body.id));
    expect((await admin.post("/api/v1/skills/bulk-delete", { ids: skills })).body.done).toBe(2);
    expect((await admin.get(`/api/v1/workspaces/${t.workspace.id}/skills`)).body.items).toEqual([]);

    const connector = await createHttpConnector(t, "Docs", ["a"]);
    const resources = [];
    for (const n of [1, 2]) resources.push((await admin.post(`/api/v1/connectors/${connector}/resources`, { uri: `docs://page/${n}`, name: `Page ${n}`, fetchConfig: { text: "hi" } })).body.id);
    const removed = await admin.post("/api/v1/resources/bulk-delete", { ids: resources });
    expect(removed.body).toMatchObject({ done: 2, failed: 0 });

    const files = [];
    for (const name of ["a.txt", "b.txt"]) files.push((await upload(t.member.token, t.workspace.id, { bytes: name, name })).body.id);
    // The admin cannot see the member's private files: they are not found, and stay.
    const byAdmin = await admin.post("/api/v1/files/bulk-delete", { ids: files });
    expect(byAdmin.body).toMatchObject({ done: 0, failed: 2 });
    const byOwner = await api(t.member.token).post("/api/v1/files/bulk-delete", { ids: files });
    expect(byOwner.body).toMatchObject({ done: 2, failed: 0 });

    const keys = [];
    for (const name of ["k1", "k2"]) keys.push((await admin.post(`/api/v1/workspaces/${t.workspace.id}/api-keys`, { name })).body.id);
    expect((await admin.post("/api/v1/api-keys/bulk-revoke", { ids: keys })).body.done).toBe(2);
    const listed = await admin.get(`/api/v1/workspaces/${t.workspace.id}/api-keys?q=k`);
    expect(listed.body.items.filter((k: { name: string }) => k.name.startsWith("k")).every((k: { revokedAt: string | null }) => k.revokedAt)).toBe(true);
  });

  it("assigns one MCP role to several workspace members; a non-member fails alone", async () => {
    const t = await createTenant();
    const role = await createMcpRole(t, []);
    const outsider = await createTenant();
    const res = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/members/bulk-role`, {
      userIds: [t.member.user.id, t.owner.user.id, outsider.member.user.id],
      mcpRoleId: role,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ done: 2, failed: 1 });
    const members = await api(t.admin.token).get(`/api/v1/workspaces/${t.workspace.id}/members`);
    const roleOf = Object.fromEntries(members.body.items.map((m: { userId: string; mcpRoleId: string | null }) => [m.userId, m.mcpRoleId]));
    expect(roleOf[t.member.user.id]).toBe(role);
    expect(roleOf[t.owner.user.id]).toBe(role);
    expect(roleOf[t.admin.user.id]).toBeNull();
    const audit = await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}/audit?action=workspace.member.update`);
    expect(audit.body.items).toHaveLength(2);
  });
});
