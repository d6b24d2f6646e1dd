import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { verifyPassword } from "@/lib/auth/password";
import { createUser as createUserAs } from "@/lib/users/users";
import { api } from "@/tests/helpers/api";
import { createTenant, createUser, INSTANCE_KEY, makeMember, uniqueSuffix } from "@/tests/helpers/factories";

const newEmail = (label = "new") => `${label}-${uniqueSuffix()}@example.test`;

describe("users API", () => {
  it("the instance credential creates a user; the password is stored as a scrypt hash and never returned", async () => {
    const email = newEmail();
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: `  ${email.toUpperCase()} `, name: "Ada", password: "correct horse battery" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), email, name: "Ada" });
    expect(res.text).not.toContain("scrypt");
    const row = await db().user.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword("correct horse battery", row.passwordHash!)).toBe(true);
    expect(row.isInstanceOwner).toBe(false);
    expect(await db().orgMember.count({ where: { userId: res.body.id } })).toBe(0);
    const events = await db().auditEvent.findMany({ where: { action: "user.create", targetId: res.body.id } });
    expect(events).toHaveLength(1);
  });

  it("a user without a password gets no hash (cannot sign in with a password)", async () => {
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: newEmail() });
    expect(res.status).toBe(201);
    expect(res.body.name).toBeNull();
    expect((await db().user.findUniqueOrThrow({ where: { id: res.body.id } })).passwordHash).toBeNull();
  });

  it("an existing email is a 409 for the instance credential, whatever its case", async () => {
    const existing = await createUser("dup");
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: existing.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });

  it("refuses a malformed email and a short password with 422 naming the fields", async () => {
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: "not-an-email", password: "short" });
    expect(res.status).toBe(422);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("an org admin creates a user, who joins the admin's organization as a member", async () => {
    const t = await createTenant();
    const email = newEmail();
    const res = await api(t.admin.token).post("/api/v1/users", { email, name: "Grace" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), email, name: "Grace" });
    const membership = await db().orgMember.findFirst({ where: { orgId: t.org.id, userId: res.body.id } });
    expect(membership?.role).toBe("member");
    const actions = (await db().auditEvent.findMany({ where: { orgId: t.org.id, targetId: res.body.id } })).map((e) => e.action);
    expect(actions.sort()).toEqual(["org.member.add", "user.create"]);
  });

  it("an org admin naming an existing email gets an invitation (202), not a membership, and learns nothing more", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const before = await db().user.update({ where: { id: other.member.user.id }, data: { name: `Private Name ${uniqueSuffix()}` } });
    const res = await api(t.admin.token).post("/api/v1/users", { email: before.email.toUpperCase(), name: "Hijack", password: "a brand new password" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ orgId: t.org.id, email: before.email, role: "member", status: "pending" });
    // Neither the account's id nor its name is in the answer.
    expect(res.text).not.toContain(before.id);
    expect(res.text).not.toContain(before.name);
    const after = await db().user.findUniqueOrThrow({ where: { id: before.id } });
    expect(after.name).toBe(before.name);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: before.id } })).toBe(0);

    const again = await api(t.admin.token).post("/api/v1/users", { email: before.email });
    expect(again.status).toBe(409);
  });

  it("the instance credential naming orgId still adds an existing account at once", async () => {
    const t = await createTenant();
    const existing = await createUser("existing");
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: existing.email, orgId: t.org.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: existing.id, email: existing.email });
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: existing.id, role: "member" } })).toBe(1);
  });

  it("a plain member may not create users (403)", async () => {
    const t = await createTenant();
    const email = newEmail();
    const res = await api(t.member.token).post("/api/v1/users", { email });
    expect(res.status).toBe(403);
    expect(await db().user.count({ where: { email } })).toBe(0);
  });

  it("orgId must name an organization the caller manages (422 on orgId), and nothing is created", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const email = newEmail();
    const res = await api(t.admin.token).post("/api/v1/users", { email, orgId: other.org.id });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "orgId" }));
    expect(await db().user.count({ where: { email } })).toBe(0);
  });

  it("the instance credential naming orgId adds the new user to that organization", async () => {
    const t = await createTenant();
    const res = await api(INSTANCE_KEY).post("/api/v1/users", { email: newEmail(), orgId: t.org.id });
    expect(res.status).toBe(201);
    expect(await db().orgMember.count({ where: { orgId: t.org.id, userId: res.body.id, role: "member" } })).toBe(1);
    const unknown = await api(INSTANCE_KEY).post("/api/v1/users", { email: newEmail(), orgId: "org_missing_000" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toContainEqual(expect.objectContaining({ path: "orgId" }));
  });

  it("a signed-in admin of several organizations must name one (422 on orgId), then joins that one", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await makeMember({ orgId: b.org.id }, { user: a.admin.user, role: "admin", workspace: false });
    const session = { kind: "user" as const, userId: a.admin.user.id, apiKey: null };
    await expect(createUserAs(session, { email: newEmail() })).rejects.toMatchObject({
      code: "validation_failed",
      extra: { errors: [expect.objectContaining({ path: "orgId" })] },
    });
    const created = await createUserAs(session, { email: newEmail(), orgId: b.org.id });
    if (created.kind !== "user") throw new Error("a new email must create an account");
    expect(await db().orgMember.count({ where: { orgId: b.org.id, userId: created.user.id } })).toBe(1);
    expect(await db().orgMember.count({ where: { orgId: a.org.id, userId: created.user.id } })).toBe(0);
  });
});
