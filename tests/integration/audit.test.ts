import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { browserSessionOf, createTenant, createWorkspace, INSTANCE_KEY } from "@/tests/helpers/factories";

const auditPath = (orgId: string, query = "") => `/api/v1/orgs/${orgId}/audit${query}`;

interface Event {
  id: string;
  action: string;
  actorId: string | null;
  targetId: string | null;
  createdAt: string;
}

describe("audit log API", () => {
  it("shows the organization's changes newest first, with who did what", async () => {
    const t = await createTenant();
    const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "S" });
    const skill = await api(t.owner.token).post(`/api/v1/workspaces/${t.workspace.id}/skills`, { name: "K", content: "c" });
    await api(t.admin.token).patch(`/api/v1/servers/${server.body.id}`, { name: "S2" });

    const res = await api(t.owner.token).get(auditPath(t.org.id));
    expect(res.status).toBe(200);
    const items = res.body.items as Event[];
    expect(items.map((e) => e.action)).toEqual(["server.update", "skill.create", "server.create"]);
    expect(items[1]).toMatchObject({
      orgId: t.org.id,
      workspaceId: t.workspace.id,
      actorType: "api_key",
      actorId: t.owner.user.id,
      targetType: "skill",
      targetId: skill.body.id,
      data: expect.objectContaining({ name: "K", apiKeyId: t.owner.apiKeyId }),
    });
    expect(res.body.nextCursor).toBeNull();
  });

  it("an API key, which acts in its own workspace, reads its workspace's and the org-level events, never another workspace's; signed in, the admin reads all", async () => {
    const t = await createTenant();
    const other = await createWorkspace(t.org.id);
    const own = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Own desk" });
    const elsewhere = await api(INSTANCE_KEY).post(`/api/v1/workspaces/${other.id}/servers`, { name: "Other desk" });
    const role = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/roles`, { name: "Agents", tools: [] });
    expect([own.status, elsewhere.status, role.status]).toEqual([201, 201, 201]);
    const targets = (items: Array<Event & { workspaceId: string | null }>) => items.map((e) => e.targetId);

    const pinned = await api(t.admin.token).get(auditPath(t.org.id));
    expect(pinned.status).toBe(200);
    expect(targets(pinned.body.items)).toContain(own.body.id);
    expect(targets(pinned.body.items)).toContain(role.body.id);
    expect(targets(pinned.body.items)).not.toContain(elsewhere.body.id);
    expect(pinned.body.items.every((e: { workspaceId: string | null }) => e.workspaceId === null || e.workspaceId === t.workspace.id)).toBe(true);
    // Asking for the other workspace by filter answers nothing rather than its events.
    expect((await api(t.admin.token).get(auditPath(t.org.id, `?workspaceId=${other.id}`))).body.items).toEqual([]);
    // The export is the same read.
    const exported = await api(t.admin.token).get(auditPath(t.org.id, "/export?format=jsonl"));
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(own.body.id);
    expect(exported.text).not.toContain(elsewhere.body.id);

    for (const whole of [await api(null).get(auditPath(t.org.id), { headers: await browserSessionOf(t.admin.user) }), await api(INSTANCE_KEY).get(auditPath(t.org.id))]) {
      expect(whole.status).toBe(200);
      expect(targets(whole.body.items)).toEqual(expect.arrayContaining([own.body.id, elsewhere.body.id, role.body.id]));
    }
  });

  it("pages newest first without gaps or repeats, also across events with the same timestamp", async () => {
    const t = await createTenant();
    const sameInstant = new Date("2030-01-01T00:00:00Z");
    await db().auditEvent.createMany({
      data: Array.from({ length: 7 }, (_, i) => ({
        orgId: t.org.id,
        actorType: "instance",
        action: "test.event",
        targetType: "thing",
        targetId: `t${i}`,
        createdAt: i < 4 ? sameInstant : new Date(sameInstant.getTime() - i * 1000),
      })),
    });
    const seen: Event[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: Event[]; nextCursor: string | null } } = await api(t.admin.token).get(auditPath(t.org.id, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`));
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((e) => e.id)).size).toBe(7);
    const order = seen.map((e) => [e.createdAt, e.id].join(" "));
    expect(order).toEqual([...order].sort().reverse());
  });

  it("filters by action, actor, target and time range", async () => {
    const t = await createTenant();
    const base = Date.parse("2031-06-01T12:00:00Z");
    const row = (action: string, actorId: string | null, targetId: string, offsetS: number) => ({
      orgId: t.org.id,
      actorType: actorId ? "user" : "instance",
      actorId,
      action,
      targetType: action.split(".")[0],
      targetId,
      createdAt: new Date(base + offsetS * 1000),
    });
    await db().auditEvent.createMany({
      data: [
        row("server.create", t.admin.user.id, "s1", 0),
        row("server.delete", t.admin.user.id, "s1", 10),
        row("skill.create", t.owner.user.id, "k1", 20),
        row("skill.delete", null, "k1", 30),
      ],
    });
    const q = async (query: string) => ((await api(t.owner.token).get(auditPath(t.org.id, query))).body.items as Event[]).map((e) => e.action);
    expect(await q("?action=server.delete")).toEqual(["server.delete"]);
    expect(await q(`?actorId=${t.admin.user.id}`)).toEqual(["server.delete", "server.create"]);
    expect(await q("?targetType=skill")).toEqual(["skill.delete", "skill.create"]);
    expect(await q("?targetType=server&targetId=s1")).toEqual(["server.delete", "server.create"]);
    expect(await q("?since=2031-06-01T12:00:10Z&until=2031-06-01T12:00:20Z")).toEqual(["skill.create", "server.delete"]);
    const bad = await api(t.owner.token).get(auditPath(t.org.id, "?since=yesterday"));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("since");
  });

  it("is for owners and admins: a member and another organization get 404", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const member = await api(t.member.token).get(auditPath(t.org.id));
    const outsider = await api(other.owner.token).get(auditPath(t.org.id));
    const missing = await api(t.owner.token).get(auditPath("org_does_not_exist"));
    expect(member.status).toBe(404);
    expect(outsider.status).toBe(404);
    expect(member.body).toEqual(missing.body);
    expect(outsider.body).toEqual(missing.body);
    expect((await api(INSTANCE_KEY).get(auditPath(t.org.id))).status).toBe(200);
  });
});
