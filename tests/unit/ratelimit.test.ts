import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consume, getLimiter, resetKey } from "@/lib/ratelimit/limiter";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";

describe("rate limiter (in-process, no REDIS_URL)", () => {
  beforeEach(() => vi.stubEnv("REDIS_URL", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("allows the budget, then refuses with an honest positive retryAfterMs", async () => {
    const limiter = getLimiter(`test-budget-${Math.random()}`, { points: 3, durationSec: 60 });
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(consume(limiter, "k")).resolves.toEqual({ ok: true });
    }
    const refused = await consume(limiter, "k");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    // Still refused on the next try, and the wait does not grow.
    const again = await consume(limiter, "k");
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.retryAfterMs).toBeLessThanOrEqual(refused.retryAfterMs);
  });

  it("keeps keys apart and forgets a key on reset", async () => {
    const limiter = getLimiter(`test-keys-${Math.random()}`, { points: 1, durationSec: 60 });
    await expect(consume(limiter, "a")).resolves.toEqual({ ok: true });
    await expect(consume(limiter, "b")).resolves.toEqual({ ok: true });
    expect((await consume(limiter, "a")).ok).toBe(false);
    await resetKey(limiter, "a");
    await expect(consume(limiter, "a")).resolves.toEqual({ ok: true });
  });

  it("reopens the window after durationSec", async () => {
    const limiter = getLimiter(`test-window-${Math.random()}`, { points: 1, durationSec: 1 });
    await consume(limiter, "k");
    const refused = await consume(limiter, "k");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    await new Promise((resolve) => setTimeout(resolve, refused.retryAfterMs + 50));
    await expect(consume(limiter, "k")).resolves.toEqual({ ok: true });
  });

  it("returns one limiter per name and refuses a conflicting budget", () => {
    const name = `test-same-${Math.random()}`;
    expect(getLimiter(name, { points: 2, durationSec: 10 })).toBe(getLimiter(name, { points: 2, durationSec: 10 }));
    expect(() => getLimiter(name, { points: 3, durationSec: 10 })).toThrow(/different budget/);
  });
});

describe("clientIpFromHeaders", () => {
  it("uses the right-most x-forwarded-for entry and unwraps IPv4-mapped IPv6", () => {
    expect(clientIpFromHeaders(new Headers({ "x-forwarded-for": "203.0.113.9, 10.0.0.2" }))).toBe("10.0.0.2");
    expect(clientIpFromHeaders(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientIpFromHeaders(new Headers())).toBe("unknown");
  });
});
