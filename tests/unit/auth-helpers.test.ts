import { afterEach, describe, expect, it, vi } from "vitest";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { isPublicPath } from "@/lib/auth/public-paths";
import { describeWait, messageForSignInError } from "@/lib/auth/sign-in-messages";
import { sessionCookieName, usesSecureCookies } from "@/lib/auth/session-token";

describe("safeCallbackPath", () => {
  it("keeps same-site paths and refuses anything that could leave the site", () => {
    expect(safeCallbackPath("/connectors?x=1")).toBe("/connectors?x=1");
    expect(safeCallbackPath("https://evil.example/")).toBe("/");
    expect(safeCallbackPath("//evil.example/")).toBe("/");
    expect(safeCallbackPath("/\\evil.example")).toBe("/");
    expect(safeCallbackPath("/ok\nSet-Cookie: x")).toBe("/");
    expect(safeCallbackPath(undefined)).toBe("/");
  });
});

describe("isPublicPath", () => {
  it("lets sign-in, setup, the APIs and static files through, and guards admin pages", () => {
    for (const path of ["/signin", "/setup", "/api/v1/orgs", "/api/auth/session", "/mcp", "/mcp/abc", "/_next/static/x.js", "/favicon.ico", "/.well-known/oauth-protected-resource/mcp/abc", "/.well-known/openid-configuration"]) {
      expect(isPublicPath(path), path).toBe(true);
    }
    for (const path of ["/", "/connectors", "/servers", "/mcp-servers", "/signin-elsewhere", "/apikeys"]) {
      expect(isPublicPath(path), path).toBe(false);
    }
  });
});

describe("sign-in messages", () => {
  it("rounds waits up and names the unit", () => {
    expect(describeWait(1)).toBe("1 second");
    expect(describeWait(45_200)).toBe("46 seconds");
    expect(describeWait(61_000)).toBe("2 minutes");
  });

  it("explains the error codes a redirect back to /signin carries, and nothing for none", () => {
    expect(messageForSignInError("SsoNotMember")).toMatch(/does not let new people join/);
    expect(messageForSignInError("whatever")).toBe("Sign-in failed. Please try again.");
    expect(messageForSignInError(undefined)).toBeUndefined();
  });
});

describe("session cookie over https", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is Secure (and __Secure- named) when PUBLIC_URL or NEXTAUTH_URL is https, plain on http", () => {
    vi.stubEnv("NEXTAUTH_URL", "");
    // https or http known only from PUBLIC_URL / NEXTAUTH_URL: both cases under test.
    vi.stubEnv("PUBLIC_URL", "https://switchboard.example.com");
    expect(usesSecureCookies()).toBe(true);
    expect(sessionCookieName()).toBe("__Secure-switchboard.session_token");
    // A plain-http public URL: no Secure cookie.
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    expect(usesSecureCookies()).toBe(false);
    expect(sessionCookieName()).toBe("switchboard.session_token");
    // NEXTAUTH_URL alone says https too.
    vi.stubEnv("NEXTAUTH_URL", "https://switchboard.example.com");
    expect(usesSecureCookies()).toBe(true);
  });
});
