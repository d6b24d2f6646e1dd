import { afterEach, describe, expect, it, vi } from "vitest";
import { newNonce, pageSecurityHeaders } from "@/lib/net/security-headers";

describe("pageSecurityHeaders", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("over https (PUBLIC_URL): HSTS and upgrade-insecure-requests as well", () => {
    // https is known only from PUBLIC_URL: the case under test.
    vi.stubEnv("PUBLIC_URL", "https://switchboard.example.com");
    const headers = pageSecurityHeaders("abc");
    expect(headers["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);
    expect(headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(headers["content-security-policy"]).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("over http: no HSTS, nothing upgraded (it would break a plain-http install)", () => {
    // http, as without PUBLIC_URL: the case under test.
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    const headers = pageSecurityHeaders("abc");
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(headers).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
  });

  it("makes a new, unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
