import { describe, expect, it } from "vitest";
import { idTokenFlaw } from "@/lib/sso/check-id-token";

/** The ID token checks of single sign-on beyond signature, issuer and audience (OIDC Core §3.1.3.7). */

const exp = Math.floor(Date.now() / 1000) + 300;
const good = { sub: "u1", aud: "switchboard", nonce: "n-1", exp };

describe("an SSO ID token", () => {
  it("is ours with our nonce and an expiry, with or without azp naming us", () => {
    expect(idTokenFlaw(good, "switchboard", "n-1")).toBeNull();
    expect(idTokenFlaw({ ...good, azp: "switchboard" }, "switchboard", "n-1")).toBeNull();
    expect(idTokenFlaw({ ...good, aud: ["switchboard", "api"], azp: "switchboard" }, "switchboard", "n-1")).toBeNull();
  });

  it("issued to another client of the same provider (azp), or to several audiences without azp, is refused", () => {
    expect(idTokenFlaw({ ...good, azp: "other-app" }, "switchboard", "n-1")).toMatch(/another client/);
    expect(idTokenFlaw({ ...good, aud: ["switchboard", "other-app"] }, "switchboard", "n-1")).toMatch(/several audiences/);
    expect(idTokenFlaw({ ...good, aud: ["switchboard", "other-app"], azp: "other-app" }, "switchboard", "n-1")).toMatch(/another client/);
  });

  it("without an expiry, or with another sign-in's nonce (or none), is refused", () => {
    const { exp: _exp, ...noExp } = good;
    expect(idTokenFlaw(noExp, "switchboard", "n-1")).toMatch(/expiry/);
    expect(idTokenFlaw(good, "switchboard", "n-2")).toMatch(/nonce/);
    const { nonce: _nonce, ...noNonce } = good;
    expect(idTokenFlaw(noNonce, "switchboard", "n-1")).toMatch(/nonce/);
  });
});
