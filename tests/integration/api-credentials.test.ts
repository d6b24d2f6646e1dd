import { describe, expect, it } from "vitest";
import { sessionCookieName } from "@/lib/auth/session-token";
import { createSessionToken } from "@/lib/auth/sessions";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";

// A small budget for this file only (each test file runs in its own process).
process.env.API_RATE_LIMIT = "5";
process.env.API_RATE_WINDOW_SEC = "60";

describe("ADMIN_API.md Credentials", () => {
  it("browser sessions (better-auth session cookie) reach the same handlers", async () => {
    const t = await createTenant();
    const token = await createSessionToken({ id: t.admin.user.id, email: t.admin.user.email, name: null });
    const res = await api(null).get(`/api/v1/orgs/${t.org.id}`, { headers: { cookie: `${sessionCookieName()}=${token}` } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(t.org.id);
  });

  it("a forged session cookie is no credential: 401", async () => {
    const t = await createTenant();
    const res = await api(null).get(`/api/v1/orgs/${t.org.id}`, { headers: { cookie: `${sessionCookieName()}=forged.token.value` } });
    expect(res.status).toBe(401);
  });

  it("the credential is read only from the Authorization header, never the query string", async () => {
    const t = await createTenant();
    const res = await api(null).get(`/api/v1/orgs/${t.org.id}?access_token=${t.owner.token}&token=${t.owner.token}`);
    expect(res.status).toBe(401);
  });
});

describe("ADMIN_API.md Errors: 429 rate limited (Retry-After header)", () => {
  it("a key past its budget gets 429 with an honest Retry-After; another key is unaffected", async () => {
    const t = await createTenant();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api(t.member.token).get(`/api/v1/orgs/${t.org.id}`)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await api(t.member.token).get(`/api/v1/orgs/${t.org.id}`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({ status: 429 });
    expect((await api(t.admin.token).get(`/api/v1/orgs/${t.org.id}`)).status).toBe(200);
  });
});
