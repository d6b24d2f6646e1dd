import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api } from "@/tests/helpers/api";
import { createTenant, createUser, INSTANCE_KEY, makeMember, uniqueSuffix } from "@/tests/helpers/factories";

describe("organizations API", () => {
  it("the instance credential creates an organization and reads it back", async () => {
    const slug = `acme-${uniqueSuffix()}`;
    const created = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Acme", slug });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: "Acme", slug });
    const read = await api(INSTANCE_KEY).get(`/api/v1/orgs/${created.body.id}`);
    expect(read.body).toMatchObject({ id: created.body.id, name: "Acme", slug });
  });

  it("a duplicate slug is a 409 conflict", async () => {
    const slug = `dup-${uniqueSuffix()}`;
    await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "One", slug });
    const second = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Two", slug });
    expect(second.status).toBe(409);
    expect(second.headers.get("content-type")).toContain("application/problem+json");
    expect(second.body.detail).toBe("An organization with that slug already exists: choose another slug.");
    expect(second.body.errors).toEqual([{ path: "slug", message: "This slug is already taken." }]);
  });

  it("an invalid slug is refused with 422 naming the field", async () => {
    const res = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "Bad", slug: "Not A Slug" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "slug" }));
  });

  it("a user who is not the instance owner cannot create organizations", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).post("/api/v1/orgs", { name: "Nope", slug: `nope-${uniqueSuffix()}` });
    expect(res.status).toBe(403);
  });

  it("lists only the organizations the caller belongs to, with cursor pagination", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const list = await api(a.member.token).get("/api/v1/orgs");
    expect(list.status).toBe(200);
    expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([a.org.id]);
    expect(list.body.nextCursor).toBeNull();
    expect(list.body.items.map((o: { id: string }) => o.id)).not.toContain(b.org.id);

    const user = await createUser("multi");
    for (const t of [a, b]) await makeMember({ orgId: t.org.id }, { user, role: "member", workspace: false });
    const page1 = await api(INSTANCE_KEY).get("/api/v1/orgs?limit=1");
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.nextCursor).toEqual(page1.body.items[0].id);
    const page2 = await api(INSTANCE_KEY).get(`/api/v1/orgs?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items[0].id).not.toEqual(page1.body.items[0].id);
  });

  it("an admin renames the organization and the change is audited", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).patch(`/api/v1/orgs/${t.org.id}`, { name: "Renamed" });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Renamed");
    const events = await db().auditEvent.findMany({ where: { orgId: t.org.id, action: "org.update" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: "api_key", actorId: t.admin.user.id, targetId: t.org.id });
  });

  it("deleting an organization removes it and everything in it", async () => {
    const t = await createTenant();
    const res = await api(t.owner.token).delete(`/api/v1/orgs/${t.org.id}`);
    expect(res.status).toBe(204);
    expect(await db().organization.findUnique({ where: { id: t.org.id } })).toBeNull();
    expect(await db().workspace.count({ where: { orgId: t.org.id } })).toBe(0);
  });

  it("only an owner deletes the organization: an admin, who cannot remove its owners, cannot delete it from under them (403, nothing gone)", async () => {
    const t = await createTenant();
    const res = await api(t.admin.token).delete(`/api/v1/orgs/${t.org.id}`);
    expect(res.status).toBe(403);
    expect(await db().organization.findUnique({ where: { id: t.org.id }, select: { id: true } })).not.toBeNull();
    expect(await db().orgMember.count({ where: { orgId: t.org.id } })).toBe(3);
    expect((await api(t.member.token).delete(`/api/v1/orgs/${t.org.id}`)).status).toBe(404);
  });

  it("a body larger than the limit is refused with 413", async () => {
    const res = await api(INSTANCE_KEY).post("/api/v1/orgs", { name: "x".repeat(2 * 1024 * 1024), slug: "big" });
    expect(res.status).toBe(413);
  });

  it("a body that is not JSON is refused with 415", async () => {
    const res = await api(INSTANCE_KEY).post("/api/v1/orgs", undefined, { raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
  });
});
