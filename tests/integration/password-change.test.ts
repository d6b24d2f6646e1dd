import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { changePassword } from "@/lib/auth/change-password";
import { signInWithPassword } from "@/lib/auth/password-sign-in";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSessionToken } from "@/lib/auth/sessions";
import { createUser } from "@/lib/users/users";
import { CreateUserBody } from "@/lib/users/schemas";
import { api } from "@/tests/helpers/api";
import { createTenant, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * A signed-in person changes their password: the current one is checked, the new one follows
 * the sign-in rules, and every other browser signed in as them is signed out at its next
 * request while the one that made the change stays in. Audited.
 */

const OLD = "correct horse battery";
const NEW = "a much newer passphrase";
const getOrg = (orgId: string, cookieValue: string) => api(null).get(`/api/v1/orgs/${orgId}`, { headers: { cookie: `${sessionCookieName()}=${cookieValue}` } });

async function personWithPassword() {
  const t = await createTenant();
  const email = `pw-${uniqueSuffix()}@example.test`;
  const created = await createUser(INSTANCE_CALLER, CreateUserBody.parse({ email, password: OLD, orgId: t.org.id }));
  const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  expect(created.kind).toBe("user");
  return { t, email, userId: user.id, caller: { kind: "user" as const, userId: user.id, apiKey: null } };
}

const ip = () => `203.0.113.${Math.floor(Math.random() * 200) + 1}`;

describe("password change", () => {
  it("signs out the person's other sessions, keeps the one that made it, and no one else's; the new password signs in", async () => {
    const { t, email, userId, caller } = await personWithPassword();
    const here = await createSessionToken({ id: userId });
    const elsewhere = await createSessionToken({ id: userId });
    const colleague = await createSessionToken({ id: t.owner.user.id });
    expect((await getOrg(t.org.id, elsewhere)).status).toBe(200);

    const result = await changePassword(caller, { currentPassword: OLD, newPassword: NEW }, { clientIp: ip(), sessionCookie: decodeURIComponent(here) });
    expect(result.signedOutSessions).toBe(1);
    expect((await getOrg(t.org.id, elsewhere)).status).toBe(401);
    expect((await getOrg(t.org.id, here)).status).toBe(200);
    expect((await getOrg(t.org.id, colleague)).status).toBe(200);

    expect((await signInWithPassword({ email, password: OLD, clientIp: ip() })).ok).toBe(false);
    expect((await signInWithPassword({ email, password: NEW, clientIp: ip() })).ok).toBe(true);
    const event = await db().auditEvent.findFirst({ where: { orgId: null, action: "user.password_change", targetId: userId } });
    expect(event).toMatchObject({ actorType: "user", actorId: userId, data: { signedOutSessions: 1 } });
  });

  it("a wrong current password, or a new one the sign-in rules refuse, changes nothing and signs nobody out", async () => {
    const { t, email, userId, caller } = await personWithPassword();
    const elsewhere = await createSessionToken({ id: userId });
    const attempts: Array<[{ currentPassword: string; newPassword: string }, string]> = [
      [{ currentPassword: "not my password", newPassword: NEW }, "currentPassword"],
      [{ currentPassword: OLD, newPassword: "short" }, "newPassword"],
      [{ currentPassword: OLD, newPassword: OLD }, "newPassword"],
    ];
    for (const [body, field] of attempts) {
      const error = await changePassword(caller, body, { clientIp: ip(), sessionCookie: undefined }).then(() => null, (e: unknown) => e);
      expect(error, JSON.stringify(body)).toBeTruthy();
      const paths = ((error as { extra?: { errors?: { path: string }[] }; issues?: { path: string[] }[] }).extra?.errors?.map((e) => e.path) ??
        (error as { issues: { path: string[] }[] }).issues?.map((i) => i.path.join("."))) as string[];
      expect(paths, JSON.stringify(body)).toContain(field);
    }
    expect((await getOrg(t.org.id, elsewhere)).status).toBe(200);
    expect((await signInWithPassword({ email, password: OLD, clientIp: ip() })).ok).toBe(true);
    expect(await db().auditEvent.count({ where: { orgId: null, action: "user.password_change", targetId: userId } })).toBe(0);
  });

  it("guessing the current password spends the sign-in budget: it locks out like sign-in does", async () => {
    const { caller } = await personWithPassword();
    const clientIp = ip();
    let last: unknown = null;
    for (let i = 0; i < 11; i++) last = await changePassword(caller, { currentPassword: `guess number ${i}`, newPassword: NEW }, { clientIp, sessionCookie: undefined }).catch((e: unknown) => e);
    expect((last as Error).message).toMatch(/Too many sign-in attempts/);
  });

  it("only the person, signed in, may change it: an API key or the instance credential may not", async () => {
    const { userId } = await personWithPassword();
    const body = { currentPassword: OLD, newPassword: NEW };
    await expect(changePassword(INSTANCE_CALLER, body, { clientIp: ip(), sessionCookie: undefined })).rejects.toThrow(/Only you/);
    await expect(changePassword({ kind: "user", userId, apiKey: { id: "k", workspaceId: "w", serverId: null } } as never, body, { clientIp: ip(), sessionCookie: undefined })).rejects.toThrow(/Only you/);
  });
});
