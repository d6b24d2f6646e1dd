import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { INSTANCE_CALLER } from "@/lib/auth/caller";
import { signInWithPassword } from "@/lib/auth/password-sign-in";
import { sessionCookieName, signSessionToken } from "@/lib/auth/session-token";
import { createSessionToken, revokeSessionToken, revokeUserSessions } from "@/lib/auth/sessions";
import { createUser } from "@/lib/users/users";
import { CreateUserBody } from "@/lib/users/schemas";
import { authorizationServer } from "@/lib/oauth/authorization-server";
import { api } from "@/tests/helpers/api";
import { createTenant, uniqueSuffix } from "@/tests/helpers/factories";

/**
 * Issue 13 point 5: admin sessions are better-auth's server-side rows, so signing out, a
 * password change and an admin's removal of a membership all take effect at the next request,
 * and the accounts made before the move (scrypt hashes on users.password_hash) still sign in.
 */

const cookieOf = (value: string) => ({ cookie: `${sessionCookieName()}=${value}` });
const getOrg = (orgId: string, value: string) => api(null).get(`/api/v1/orgs/${orgId}`, { headers: cookieOf(value) });

afterEach(() => vi.unstubAllEnvs());

describe("admin sessions", () => {
  it("an account created by the old code path signs in with its password, and gets a session the API accepts", async () => {
    const t = await createTenant();
    const email = `legacy-${uniqueSuffix()}@example.test`;
    const created = await createUser(INSTANCE_CALLER, CreateUserBody.parse({ email, password: "correct horse battery", orgId: t.org.id }));
    expect(created.kind).toBe("user");
    const stored = await db().user.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);

    expect((await signInWithPassword({ email, password: "wrong password!", clientIp: "203.0.113.7" })).ok).toBe(false);
    const result = await signInWithPassword({ email: email.toUpperCase(), password: "correct horse battery", clientIp: "203.0.113.7" });
    if (!result.ok) throw new Error(`sign-in refused: ${result.reason}`);
    const value = await createSessionToken(result.user);
    expect((await getOrg(t.org.id, value)).status).toBe(200);
  });

  it("signing out deletes the session: the same cookie is a 401 at the next request", async () => {
    const t = await createTenant();
    const value = await createSessionToken({ id: t.admin.user.id });
    expect((await getOrg(t.org.id, value)).status).toBe(200);
    await revokeSessionToken(value);
    expect((await getOrg(t.org.id, value)).status).toBe(401);
  });

  it("revoking a user's sessions (a password change) ends every browser of theirs, and no one else's", async () => {
    const t = await createTenant();
    const laptop = await createSessionToken({ id: t.admin.user.id });
    const phone = await createSessionToken({ id: t.admin.user.id });
    const colleague = await createSessionToken({ id: t.owner.user.id });
    await revokeUserSessions(t.admin.user.id);
    expect((await getOrg(t.org.id, laptop)).status).toBe(401);
    expect((await getOrg(t.org.id, phone)).status).toBe(401);
    expect((await getOrg(t.org.id, colleague)).status).toBe(200);
  });

  it("a member an admin removed is refused at their next request, session and all", async () => {
    const t = await createTenant();
    const value = await createSessionToken({ id: t.member.user.id });
    expect((await getOrg(t.org.id, value)).status).toBe(200);
    const removed = await api(t.admin.token).delete(`/api/v1/orgs/${t.org.id}/members/${t.member.user.id}`);
    expect(removed.status).toBe(204);
    expect((await getOrg(t.org.id, value)).status).toBe(404);
  });

  it("an expired session, or a token signed with another secret, is no credential", async () => {
    const t = await createTenant();
    const value = await createSessionToken({ id: t.admin.user.id });
    const token = decodeURIComponent(value).split(".")[0];
    await db().session.update({ where: { token }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await getOrg(t.org.id, value)).status).toBe(401);

    const live = decodeURIComponent(await createSessionToken({ id: t.admin.user.id })).split(".")[0];
    // Signed with a secret that is not the app's: the forgery must be refused.
    vi.stubEnv("NEXTAUTH_SECRET", "another-secret-another-secret-another");
    const forged = signSessionToken(live);
    vi.unstubAllEnvs();
    expect((await getOrg(t.org.id, encodeURIComponent(forged))).status).toBe(401);
  });

  it("the cookie is the one better-auth itself reads, so the OAuth authorization server sees the same session", async () => {
    const context = await authorizationServer().$context;
    expect(context.authCookies.sessionToken.name).toBe(sessionCookieName());
    const t = await createTenant();
    const value = await createSessionToken({ id: t.admin.user.id });
    const session = await authorizationServer().api.getSession({ headers: new Headers(cookieOf(value)) });
    expect(session?.user.id).toBe(t.admin.user.id);
  });
});
