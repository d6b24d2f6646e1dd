import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { fetchRetrying503, startAppInstance, type AppInstance, warmUp } from "@/tests/helpers/app-instance";
import { createTenant, INSTANCE_KEY, uniqueSuffix } from "@/tests/helpers/factories";
import { startTestRedis, type TestRedis } from "@/tests/helpers/redis-server";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";
import { signInWithPassword } from "@/lib/auth/password-sign-in";
import { logger } from "@/lib/log";
import { publish, subscribe } from "@/lib/redis/pubsub";
import { disconnectRedis } from "@/lib/redis/redis-connections";
import { Redis } from "ioredis";

/**
 * Issue 7 acceptance, against a real redis-server started here (Debian package `redis-server`):
 * each limit rejects at its budget and reports an honest wait; two app instances share one
 * budget; Redis stopped mid-test → no request fails because of it, and limits resume after it
 * restarts; a stalled Redis does not stall requests.
 */

const API_BUDGET = 5;
const LOGIN_PER_ACCOUNT = 3;
const LOGIN_PER_IP = 5;
let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
  // Read when the limiters and the Redis connection are first created, i.e. after this.
  process.env.REDIS_URL = redis.url;
  // Small budgets (defaults 600 a minute, 10 and 50 sign-in failures) so a few requests spend each.
  process.env.API_RATE_LIMIT = String(API_BUDGET);
  process.env.LOGIN_MAX_PER_ACCOUNT = String(LOGIN_PER_ACCOUNT);
  process.env.LOGIN_MAX_PER_IP = String(LOGIN_PER_IP);
});

afterAll(async () => {
  disconnectRedis();
  await redis?.dispose();
});

const MCP_BUDGET = 3;
const MCP_HEADERS = { host: "localhost:3000", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

/**
 * A reported wait is honest when it covers the key's remaining life in Redis, rounded up at most
 * `slackMs` — plus the time from the request (`sentAt`, performance.now()) to this reading, which
 * a loaded machine stretches to seconds: the key's life ran on meanwhile.
 */
function expectHonest(reportedMs: number, remainingMs: number, slackMs: number, sentAt: number): void {
  const elapsedMs = performance.now() - sentAt;
  expect(remainingMs).toBeGreaterThan(0);
  expect(reportedMs).toBeGreaterThanOrEqual(remainingMs);
  expect(reportedMs - remainingMs).toBeLessThan(slackMs + elapsedMs);
}

afterEach(() => vi.unstubAllEnvs());

/** The remaining time to live of a limiter key in Redis, in ms (what the true wait is). */
function pttl(key: string): number {
  return Number(redis.cli("PTTL", key));
}

describe("Rate limits in Redis: each limit rejects at its budget and the wait it reports is honest", () => {
  it("admin JSON API: per key — HTTP 429 with a Retry-After equal to the window's remainder", async () => {
    const { member } = await createTenant();
    for (let i = 0; i < API_BUDGET; i++) expect((await api(member.token).get("/api/v1/orgs")).status).toBe(200);
    const sentAt = performance.now();
    const refused = await api(member.token).get("/api/v1/orgs");
    expect(refused.status).toBe(429);
    const key = `sb:rl:api:key:${member.apiKeyId}`;
    // The budget is kept in Redis (shared by every instance), not in this process.
    expect(Number(redis.cli("GET", key))).toBe(API_BUDGET + 1);
    expectHonest(Number(refused.headers.get("retry-after")) * 1000, pttl(key), 2_000, sentAt);
  });

  it("sign-in attempts: per account and address — locked at the budget with the window's true remainder", async () => {
    const email = `nobody-${uniqueSuffix()}@example.test`;
    for (let i = 0; i < LOGIN_PER_ACCOUNT; i++) {
      const attempt = await signInWithPassword({ email, password: "wrong", clientIp: "203.0.113.1" });
      expect(attempt).toEqual({ ok: false, reason: "invalid" });
    }
    const sentAt = performance.now();
    const locked = await signInWithPassword({ email, password: "wrong", clientIp: "203.0.113.1" });
    expect(locked).toMatchObject({ ok: false, reason: "locked" });
    expectHonest((locked as { retryAfterMs: number }).retryAfterMs, pttl(`sb:rl:login-account-ip:${email}|203.0.113.1`), 1_000, sentAt);
    // The same account from another address has its own budget.
    expect(await signInWithPassword({ email, password: "wrong", clientIp: "203.0.113.2" })).toEqual({ ok: false, reason: "invalid" });
  });

  it("sign-in attempts: per IP — locked at the budget with the window's true remainder", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      const attempt = await signInWithPassword({ email: `x-${uniqueSuffix()}@example.test`, password: "wrong", clientIp: ip });
      expect(attempt).toEqual({ ok: false, reason: "invalid" });
    }
    const sentAt = performance.now();
    const locked = await signInWithPassword({ email: `x-${uniqueSuffix()}@example.test`, password: "wrong", clientIp: ip });
    expect(locked).toMatchObject({ ok: false, reason: "locked" });
    expectHonest((locked as { retryAfterMs: number }).retryAfterMs, pttl(`sb:rl:login-ip:${ip}`), 1_000, sentAt);
  });

  it("MCP endpoints: per API key — 429 with an honest Retry-After before any work is done (even the key check)", async () => {
    // The file's small budget (default 600 a minute), so a few requests spend it.
    vi.stubEnv("MCP_RATE_LIMIT", String(MCP_BUDGET));
    const token = `sb_not-a-key-${uniqueSuffix()}`; // refused by the limiter before anyone looks it up
    const send = () => api(token).post("/mcp", INITIALIZE, { headers: MCP_HEADERS });
    for (let i = 0; i < MCP_BUDGET; i++) expect((await send()).status).toBe(401);
    const sentAt = performance.now();
    const refused = await send();
    expect(refused.status).toBe(429);
    const key = `sb:rl:mcp:${MCP_BUDGET}/60:${createHash("sha256").update(token).digest("base64url").slice(0, 32)}`;
    expect(Number(redis.cli("GET", key))).toBe(MCP_BUDGET + 1);
    expectHonest(Number(refused.headers.get("retry-after")) * 1000, pttl(key), 2_000, sentAt);
  });

  it("MCP endpoints: per client IP on /mcp/demo — 429 with an honest Retry-After", async () => {
    // The file's small budget (default 60 a minute), so a few requests spend it.
    vi.stubEnv("MCP_DEMO_RATE_LIMIT", String(MCP_BUDGET));
    const ip = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
    // In-process, the test is our server layer: it stamps the socket address itself.
    const send = () => api(null).post("/mcp/demo", INITIALIZE, { headers: { ...MCP_HEADERS, "x-switchboard-socket-address": ip } });
    for (let i = 0; i < MCP_BUDGET; i++) expect((await send()).status).toBe(200);
    const sentAt = performance.now();
    const refused = await send();
    expect(refused.status).toBe(429);
    const key = `sb:rl:mcp-demo:${MCP_BUDGET}/60:${ip}`;
    expectHonest(Number(refused.headers.get("retry-after")) * 1000, pttl(key), 2_000, sentAt);
  });

  it("a refused key is served again once the reported wait has passed", async () => {
    const limiter = getLimiter(`reopen-${uniqueSuffix()}`, { points: 2, durationSec: 1 });
    await consume(limiter, "k");
    await consume(limiter, "k");
    const refused = await consume(limiter, "k");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    await new Promise((resolve) => setTimeout(resolve, refused.retryAfterMs + 50));
    await expect(consume(limiter, "k")).resolves.toEqual({ ok: true });
  });
});

describe("Several instances", () => {
  let a: AppInstance;
  let b: AppInstance;
  const SHARED_BUDGET = 100;

  beforeAll(async () => {
    // Two instances on the test's Redis with one API budget (default 600); info logs, read only to diagnose a failure.
    // RATE_LIMIT_REDIS_TIMEOUT_MS: past its 300 ms default an instance counts that request in
    // its own memory instead (the promised fallback, tested in "Redis goes away"), and a loaded
    // machine can be that slow; these tests are about the budget Redis shares.
    const env = { REDIS_URL: redis.url, API_RATE_LIMIT: String(SHARED_BUDGET), LOG_LEVEL: "info", RATE_LIMIT_REDIS_TIMEOUT_MS: "10000" };
    [a, b] = await Promise.all([startAppInstance(env), startAppInstance(env)]);
    // The admin API's modules, loaded before the tests (with the instance key: its own budget).
    await warmUp([a, b], "/api/v1/orgs", { headers: { authorization: `Bearer ${INSTANCE_KEY}` } });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("two app instances share one budget: exactly the budget is admitted, counted once in Redis", async () => {
    const { member } = await createTenant();
    const headers = { authorization: `Bearer ${member.token}` };
    const statuses = { a: [] as number[], b: [] as number[] };
    // 1.5× the budget, alternating between the instances, 10 in flight at a time. A 503 (no
    // database connection in time, on a loaded machine) is sent again, as a client would.
    const jobs = Array.from({ length: SHARED_BUDGET * 1.5 }, (_, i) => (i % 2 === 0 ? "a" : "b") as "a" | "b");
    for (let i = 0; i < jobs.length; i += 10) {
      await Promise.all(
        jobs.slice(i, i + 10).map(async (which) => {
          for (let attempt = 0; attempt < 15; attempt++) {
            const response = await (which === "a" ? a : b).fetch("/api/v1/orgs", { headers });
            await response.arrayBuffer();
            statuses[which].push(response.status);
            if (response.status !== 503) return;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        }),
      );
    }
    const all = [...statuses.a, ...statuses.b];
    const count = (status: number) => all.filter((s) => s === status).length;
    expect(all.filter((s) => s !== 200 && s !== 429 && s !== 503)).toEqual([]);
    // Counted on its own terms, not by time: every request the limiter saw is one in Redis (a
    // 503 may come before the limiter or after it admitted the request), none in an instance's
    // own memory, all in one window (one that ran out midway would have restarted the count)…
    const counted = Number(redis.cli("GET", `sb:rl:api:key:${member.apiKeyId}`));
    expect(counted).toBeGreaterThanOrEqual(all.length - count(503));
    expect(counted).toBeLessThanOrEqual(all.length);
    expect(a.output() + b.output()).not.toContain("rate limits fall back");
    // …and of them the two instances together admitted exactly the budget, refused the rest.
    expect(counted - count(429)).toBe(SHARED_BUDGET);
    expect(count(200)).toBeLessThanOrEqual(SHARED_BUDGET);
    expect(count(200) + count(503)).toBeGreaterThanOrEqual(SHARED_BUDGET);
    // Both instances served and both refused: neither kept a private budget.
    for (const own of [statuses.a, statuses.b]) {
      expect(own).toContain(200);
      expect(own).toContain(429);
    }
  }, 120_000);

  it("A revoked key is refused by the other instance on its next request", async () => {
    const { member } = await createTenant();
    const asMember = { authorization: `Bearer ${member.token}` };
    expect((await fetchRetrying503(b, "/api/v1/orgs", { headers: asMember })).status).toBe(200);
    const revoked = await fetchRetrying503(a, `/api/v1/api-keys/${member.apiKeyId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${INSTANCE_KEY}` },
    });
    expect(revoked.status).toBe(204);
    expect((await fetchRetrying503(b, "/api/v1/orgs", { headers: asMember })).status).toBe(401);
  });
});

describe("Several instances: changes reach live sessions on the other instances (Redis pub/sub)", () => {
  it("a message published by another instance reaches this one's subscribers; this one's own messages arrive once", async () => {
    const received: string[] = [];
    const unsubscribe = subscribe("config-changed", (message) => received.push(message));
    const otherInstance = new Redis(redis.url);
    try {
      // The subscription is set up asynchronously: publish until it is in place.
      await vi.waitFor(async () => {
        await otherInstance.publish("sb:config-changed", "org-from-b");
        expect(received).toContain("org-from-b");
      }, { timeout: 5_000, interval: 100 });
      await publish("config-changed", "org-from-a");
      await vi.waitFor(() => expect(received).toContain("org-from-a"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Through Redis like everyone else's, and not a second time locally.
      expect(received.filter((m) => m === "org-from-a")).toHaveLength(1);
    } finally {
      unsubscribe();
      otherInstance.disconnect();
    }
  });
});

describe("Redis goes away", () => {
  const fallbackWarnings = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.filter((call) => String(call.at(-1)).includes("fall back")).length;

  it("Redis stopped mid-test → no request fails because of it, the log says so once, and limits resume after it restarts", async () => {
    const warn = vi.spyOn(logger, "warn");
    const info = vi.spyOn(logger, "info");
    const name = `outage-${uniqueSuffix()}`;
    const limiter = getLimiter(name, { points: 1_000, durationSec: 60 });
    await expect(consume(limiter, "before")).resolves.toEqual({ ok: true });
    expect(redis.cli("GET", `sb:rl:${name}:before`)).toBe("1");

    await redis.stop();
    const { member } = await createTenant();
    const results = await Promise.all(Array.from({ length: 30 }, () => consume(limiter, "during")));
    expect(results.every((r) => r.ok)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await api(member.token).get("/api/v1/orgs")).status).toBe(200);
    // Limits still hold meanwhile, from this instance's memory.
    const small = getLimiter(`outage-small-${uniqueSuffix()}`, { points: 2, durationSec: 60 });
    expect([await consume(small, "k"), await consume(small, "k")].every((r) => r.ok)).toBe(true);
    expect((await consume(small, "k")).ok).toBe(false);
    expect(fallbackWarnings(warn)).toBe(1);
    // Cross-instance hints degrade to this instance only, without failing the publisher.
    const hints: string[] = [];
    const unsubscribe = subscribe("config-changed", (message) => hints.push(message));
    await expect(publish("config-changed", "while-down")).resolves.toBeUndefined();
    expect(hints).toEqual(["while-down"]);

    await redis.restart();
    await vi.waitFor(
      async () => {
        await consume(limiter, "after");
        expect(redis.cli("GET", `sb:rl:${name}:after`)).not.toBe("");
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(info.mock.calls.filter((call) => String(call.at(-1)).includes("resume")).length).toBe(1);
    // The subscriber connection re-subscribed by itself: other instances' hints arrive again.
    const otherInstance = new Redis(redis.url);
    await vi.waitFor(async () => {
      await otherInstance.publish("sb:config-changed", "after-restart");
      expect(hints).toContain("after-restart");
    }, { timeout: 10_000, interval: 200 });
    otherInstance.disconnect();
    unsubscribe();
    expect(fallbackWarnings(warn)).toBe(1);
    warn.mockRestore();
    info.mockRestore();
  });

  it("a stalled Redis (SIGSTOP) does not stall requests beyond a short timeout, and shared limits resume after it", async () => {
    const name = `stall-${uniqueSuffix()}`;
    const limiter = getLimiter(name, { points: 1_000, durationSec: 60 });
    await expect(consume(limiter, "k")).resolves.toEqual({ ok: true });
    redis.stall();
    try {
      const started = Date.now();
      // 20 requests one after another: without a command timeout the first would hang for as
      // long as Redis is stopped; with a timeout but no breaker each would wait for it.
      for (let i = 0; i < 20; i++) expect((await consume(limiter, "k")).ok).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      redis.resume();
    }
    await vi.waitFor(
      async () => {
        await consume(limiter, "resumed");
        expect(redis.cli("GET", `sb:rl:${name}:resumed`)).not.toBe("");
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
