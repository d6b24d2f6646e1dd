import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/lib/db/migrate";

/**
 * First run needs a database with no user at all, which the shared test database never is, so
 * this file makes its own empty databases on the same server and points db() at them.
 */

const SHARED_URL = process.env.DATABASE_URL!;
const created: string[] = [];

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SHARED_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty, migrated database and makes it the one db() talks to from now on. */
async function useFreshDatabase(): Promise<void> {
  const name = `first_run_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  created.push(name);
  const url = new URL(SHARED_URL);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  const holder = globalThis as unknown as { switchboardDb?: { $disconnect(): Promise<void> } };
  await holder.switchboardDb?.$disconnect();
  delete holder.switchboardDb;
  // A fresh database of its own: a first run is one with no user yet.
  process.env.DATABASE_URL = url.toString();
}

beforeAll(() => {
  // 3 failures lock an account (default 10), so the lockout test is short; no Redis, as by default.
  vi.stubEnv("LOGIN_MAX_PER_ACCOUNT", "3");
  vi.stubEnv("REDIS_URL", "");
});

afterAll(async () => {
  const { db } = await import("@/lib/db/client");
  await db().$disconnect();
  for (const name of created) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  vi.unstubAllEnvs();
});

describe("first run", () => {
  it("seeds the owner from INITIAL_ADMIN_* once, however often it is called", async () => {
    await useFreshDatabase();
    // The seed under test (a default install has none: its owner is made at /setup).
    vi.stubEnv("INITIAL_ADMIN_EMAIL", "Seed@Example.test");
    vi.stubEnv("INITIAL_ADMIN_PASSWORD", "seeded-password-123");
    const { hasAnyUser, seedInitialAdminFromEnv } = await import("@/lib/auth/first-run");
    const { db } = await import("@/lib/db/client");
    expect(await hasAnyUser()).toBe(false);
    await Promise.all([seedInitialAdminFromEnv(), seedInitialAdminFromEnv()]);
    await seedInitialAdminFromEnv();
    const users = await db().user.findMany({ select: { email: true, isInstanceOwner: true } });
    expect(users).toEqual([{ email: "seed@example.test", isInstanceOwner: true }]);
    vi.stubEnv("INITIAL_ADMIN_EMAIL", "");
  });

  it("lets exactly one of two racing visitors become the owner, with a Default org and workspace", async () => {
    await useFreshDatabase();
    const { createInstanceOwner } = await import("@/lib/auth/first-run");
    const { db } = await import("@/lib/db/client");
    const results = await Promise.all([
      createInstanceOwner({ email: "first@example.test", name: "First", password: "first-password-123" }),
      createInstanceOwner({ email: "second@example.test", name: "Second", password: "second-password-123" }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: "already-set-up" }]);

    const users = await db().user.findMany({ select: { id: true, isInstanceOwner: true } });
    expect(users).toHaveLength(1);
    expect(users[0].isInstanceOwner).toBe(true);
    const org = await db().organization.findUniqueOrThrow({
      where: { slug: "default" },
      select: { name: true, members: { select: { userId: true, role: true } }, workspaces: { select: { name: true, slug: true } } },
    });
    expect(org).toEqual({
      name: "Default",
      members: [{ userId: users[0].id, role: "owner" }],
      workspaces: [{ name: "Default", slug: "default" }],
    });

    const later = await createInstanceOwner({ email: "late@example.test", name: "Late", password: "late-password-1234" });
    expect(later).toEqual({ ok: false, reason: "already-set-up" });
  });

  it("signs the owner in, refuses a wrong password; a stranger's failures lock out only the stranger's address", async () => {
    const { signInWithPassword } = await import("@/lib/auth/password-sign-in");
    const winner = await (await import("@/lib/db/client")).db().user.findFirstOrThrow({ select: { email: true } });
    const password = winner.email.startsWith("first") ? "first-password-123" : "second-password-123";
    const attempt = (secret: string, clientIp: string) => signInWithPassword({ email: winner.email, password: secret, clientIp });

    const ok = await signInWithPassword({ email: winner.email.toUpperCase(), password, clientIp: "192.0.2.1" });
    expect(ok.ok).toBe(true);
    expect(await attempt("nope", "192.0.2.1")).toEqual({ ok: false, reason: "invalid" });

    // A stranger spends the budget (3) on the owner's account from their own address...
    for (let i = 0; i < 3; i++) expect(await attempt("guess", "198.51.100.66")).toEqual({ ok: false, reason: "invalid" });
    const strangerLocked = await attempt(password, "198.51.100.66");
    expect(strangerLocked).toMatchObject({ ok: false, reason: "locked" });
    expect((strangerLocked as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    // ...and the owner, from theirs, still signs in with the right password.
    expect((await attempt(password, "192.0.2.1")).ok).toBe(true);

    // Guessing from the owner's address backs that address off the account as well.
    for (let i = 0; i < 3; i++) await attempt("nope", "192.0.2.1");
    expect(await attempt(password, "192.0.2.1")).toMatchObject({ ok: false, reason: "locked" });
  });
});
