import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consume, getLimiter, resetKey } from "@/lib/ratelimit/limiter";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";
import { SOCKET_ADDRESS_HEADER } from "@/lib/net/socket-address";

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
  afterEach(() => vi.unstubAllEnvs());
  const from = (socket: string, forwardedFor?: string) =>
    clientIpFromHeaders(new Headers({ [SOCKET_ADDRESS_HEADER]: socket, ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) }));

  it("is the socket's address for a direct client, whatever X-Forwarded-For it sends", () => {
    expect(from("198.51.100.20", "203.0.113.9")).toBe("198.51.100.20");
    expect(from("::ffff:127.0.0.1")).toBe("127.0.0.1");
    // No stamp from our server layer (it never reached us through it): one shared "unknown".
    expect(clientIpFromHeaders(new Headers({ "x-forwarded-for": "203.0.113.9" }))).toBe("unknown");
  });

  it("behind a trusted proxy, is the right-most forwarded address that no trusted proxy vouches for", () => {
    // The setting under test: proxies whose X-Forwarded-For is believed (a default install trusts none).
    vi.stubEnv("TRUSTED_PROXIES", "10.0.0.0/8, ::1");
    expect(from("10.0.0.2", "203.0.113.9")).toBe("203.0.113.9");
    expect(from("10.0.0.2", "192.0.2.66, 203.0.113.9, 10.3.0.1")).toBe("203.0.113.9");
    expect(from("::1", "::ffff:203.0.113.5")).toBe("203.0.113.5");
    // A proxy that forwarded nothing (or nothing readable) is the client as far as we know.
    expect(from("10.0.0.2")).toBe("10.0.0.2");
    expect(from("10.0.0.2", "not-an-address")).toBe("10.0.0.2");
    // An untrusted socket's header is still ignored.
    expect(from("198.51.100.20", "203.0.113.9")).toBe("198.51.100.20");
  });

  it("TRUSTED_PROXIES that is not a list of CIDRs is a setting error naming the variable", () => {
    // Not a valid value: the error is what is under test.
    vi.stubEnv("TRUSTED_PROXIES", "10.0.0.0/33");
    expect(() => from("10.0.0.2", "203.0.113.9")).toThrow(/TRUSTED_PROXIES/);
  });
});
