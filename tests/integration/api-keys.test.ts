import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { hashApiKey } from "@/lib/auth/api-key-secret";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor, createTenant, createUser, createWorkspace, INSTANCE_KEY, makeMember, makeServer } from "@/tests/helpers/factories";

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;
const LIST_FIELDS = ["createdAt", "createdBy", "expiresAt", "id", "lastUsedAt", "name", "prefix", "revokedAt", "serverId", "userId", "workspaceId"];

describe("API keys API", () => {
  it("a member creates a key for itself; the secret is shown once and only its hash is stored", async () => {
    const t = await createTenant();
    const res = await api(t.member.token).post(keysPath(t.workspace.id), { name: "laptop" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: "laptop",
      userId: t.member.user.id,
      workspaceId: t.workspace.id,
      serverId: null,
      expiresAt: null,
      createdAt: expect.any(String),
    });
    expect(res.body.key).toMatch(/^sb_[A-Za-z0-9_-]{30,}$/);
    expect(res.body.prefix).toBe(res.body.key.slice(0, res.body.prefix.length));
    expect(res.body.prefix.length).toBeLessThan(res.body.key.length / 2);

    const row = await db().apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.hash).toBe(hashApiKey(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key);

    // The new key works, and no answer shows a secret again.
    const list = await api(res.body.key).get(keysPath(t.workspace.id));
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(res.body.key);
    expect(list.text).not.toContain(row.hash);
    const mine = list.body.items.find((k: { id: string }) => k.id === res.body.id);
    expect(Object.keys(mine).sort()).toEqual(LIST_FIELDS);
  });

  it("a member lists only its own keys; a manager lists all of the workspace", async () => {
    const t = await createTenant();
    const memberList = await api(t.member.token).get(keysPath(t.workspace.id));
    expect(memberList.body.items.map((k: { id: string }) => k.id)).toEqual([t.member.apiKeyId]);
    const adminList = await api(t.admin.token).get(keysPath(t.workspace.id));
    expect(adminList.body.items.map((k: { id: string }) => k.id).sort()).toEqual([t.owner.apiKeyId, t.admin.apiKeyId, t.member.apiKeyId].sort());
    const page = await api(t.admin.token).get(`${keysPath(t.workspace.id)}?limit=2`);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.nextCursor).toEqual(page.body.items[1].id);
  });

  it("a revoked key gets 401 on its very next request, and the revocation is audited without secrets", async () => {
    const t = await createTenant();
    const created = await api(t.member.token).post(keysPath(t.workspace.id), { name: "short-lived" });
    const key = created.body.key as string;
    expect((await api(key).get(keysPath(t.workspace.id))).status).toBe(200);

    const revoked = await api(t.member.token).delete(`/api/v1/api-keys/${created.body.id}`);
    expect(revoked.status).toBe(204);
    const after = await api(key).get(keysPath(t.workspace.id));
    expect(after.status).toBe(401);
    expect(after.headers.get("content-type")).toContain("application/problem+json");

    const listed = await api(t.member.token).get(keysPath(t.workspace.id));
    expect(listed.body.items.find((k: { id: string }) => k.id === created.body.id).revokedAt).toEqual(expect.any(String));
    // Revoking again changes nothing.
    expect((await api(t.member.token).delete(`/api/v1/api-keys/${created.body.id}`)).status).toBe(204);

    const events = await db().auditEvent.findMany({ where: { targetType: "api_key", targetId: created.body.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["api_key.create", "api_key.revoke"]);
    const hash = hashApiKey(key);
    for (const e of events) {
      expect(JSON.stringify(e)).not.toContain(key);
      expect(JSON.stringify(e)).not.toContain(hash);
      expect(JSON.stringify(e)).not.toContain(created.body.prefix);
    }
  });

  it("an expired key gets 401", async () => {
    const t = await createTenant();
    const expired = await createApiKeyFor(t.member.user, { id: t.workspace.id, orgId: t.org.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await api(expired.token).get(keysPath(t.workspace.id))).status).toBe(401);
  });

  it("a member can neither list nor revoke another member's key (404, key still works)", async () => {
    const t = await createTenant();
    const colleague = await makeMember(t, { role: "member", label: "colleague" });
    const theirs = await createApiKeyFor(colleague, { id: t.workspace.id, orgId: t.org.id });

    const list = await api(t.member.token).get(keysPath(t.workspace.id));
    expect(list.body.items.map((k: { id: string }) => k.id)).not.toContain(theirs.apiKeyId);
    const revoke = await api(t.member.token).delete(`/api/v1/api-keys/${theirs.apiKeyId}`);
    const missing = await api(t.member.token).delete(`/api/v1/api-keys/key_does_not_exist`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toEqual(missing.body);
    expect((await api(theirs.token).get(keysPath(t.workspace.id))).status).toBe(200);

    // A manager may revoke it.
    expect((await api(t.admin.token).delete(`/api/v1/api-keys/${theirs.apiKeyId}`)).status).toBe(204);
    expect((await api(theirs.token).get(keysPath(t.workspace.id))).status).toBe(401);
  });

  it("only managers (and the instance credential, which must name the user) issue keys for others", async () => {
    const t = await createTenant();
    const forOther = await api(t.member.token).post(keysPath(t.workspace.id), { name: "x", userId: t.admin.user.id });
    expect(forOther.status).toBe(403);
    const forSelf = await api(t.member.token).post(keysPath(t.workspace.id), { name: "x", userId: t.member.user.id });
    expect(forSelf.status).toBe(201);

    const byAdmin = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "for member", userId: t.member.user.id });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.userId).toBe(t.member.user.id);

    const stranger = await createUser("stranger");
    const forStranger = await api(t.admin.token).post(keysPath(t.workspace.id), { name: "x", userId: stranger.id });
    expect(forStranger.status).toBe(422);
    expect(forStranger.body.errors).toEqual([{ path: "userId", message: expect.any(String) }]);

    const instanceNoUser = await api(INSTANCE_KEY).post(keysPath(t.workspace.id), { name: "x" });
    expect(instanceNoUser.status).toBe(422);
    expect(instanceNoUser.body.errors[0].path).toBe("userId");
    const instance = await api(INSTANCE_KEY).post(keysPath(t.workspace.id), { name: "x", userId: t.owner.user.id });
    expect(instance.status).toBe(201);
    const event = await db().auditEvent.findFirstOrThrow({ where: { targetId: instance.body.id } });
    expect(event).toMatchObject({ action: "api_key.create", actorType: "instance", data: expect.objectContaining({ userId: t.owner.user.id }) });
  });

  it("serverId must name a server of the same workspace; expiresAt must be in the future", async () => {
    const t = await createTenant();
    const otherWs = await createWorkspace(t.org.id);
    const own = await makeServer(t, { name: "Own" });
    const elsewhere = await makeServer(t, { workspaceId: otherWs.id, name: "Elsewhere" });

    const pinned = await api(t.member.token).post(keysPath(t.workspace.id), { name: "pinned", serverId: own.id, expiresAt: "2999-01-01T00:00:00Z" });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toMatchObject({ serverId: own.id, expiresAt: "2999-01-01T00:00:00.000Z" });

    const wrongServer = await api(t.member.token).post(keysPath(t.workspace.id), { name: "x", serverId: elsewhere.id });
    expect(wrongServer.status).toBe(422);
    expect(wrongServer.body.errors).toEqual([{ path: "serverId", message: expect.any(String) }]);

    const past = await api(t.member.token).post(keysPath(t.workspace.id), { name: "x", expiresAt: "2001-01-01T00:00:00Z" });
    expect(past.status).toBe(422);
    expect(past.body.errors[0].path).toBe("expiresAt");

    // A pinned key cannot mint itself a wider, unpinned key.
    const widened = await api(pinned.body.key).post(keysPath(t.workspace.id), { name: "wider", serverId: null });
    expect(widened.status).toBe(403);
    const inherited = await api(pinned.body.key).post(keysPath(t.workspace.id), { name: "same pin" });
    expect(inherited.body.serverId).toBe(own.id);
  });
});
