import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword, type ScryptParams } from "@/lib/auth/password";

// Cheap parameters keep the suite fast; one test exercises the real defaults.
const FAST: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };

describe("password hashing", () => {
  it("verifies the password it hashed (default parameters)", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    await expect(verifyPassword("correct horse battery staple", stored)).resolves.toBe(true);
  });

  it("rejects a wrong password", async () => {
    const stored = await hashPassword("correct horse battery staple", FAST);
    await expect(verifyPassword("correct horse battery stapler", stored)).resolves.toBe(false);
    await expect(verifyPassword("", stored)).resolves.toBe(false);
  });

  it("salts: two hashes of the same password differ and both verify", async () => {
    const first = await hashPassword("same password twice", FAST);
    const second = await hashPassword("same password twice", FAST);
    expect(first).not.toBe(second);
    await expect(verifyPassword("same password twice", first)).resolves.toBe(true);
    await expect(verifyPassword("same password twice", second)).resolves.toBe(true);
  });

  it("never matches a malformed or tampered stored string", async () => {
    const stored = await hashPassword("pw", FAST);
    const parts = stored.split("$");
    await expect(verifyPassword("pw", "")).resolves.toBe(false);
    await expect(verifyPassword("pw", "plain-text-password")).resolves.toBe(false);
    await expect(verifyPassword("pw", ["bcrypt", ...parts.slice(1)].join("$"))).resolves.toBe(false);
    // N far above the accepted ceiling would let a crafted row exhaust memory.
    await expect(verifyPassword("pw", ["scrypt", String(2 ** 30), ...parts.slice(2)].join("$"))).resolves.toBe(false);
  });

  it("asks for a rehash when the stored cost is below today's default", async () => {
    expect(needsRehash(await hashPassword("pw", FAST))).toBe(true);
    expect(needsRehash(await hashPassword("pw"))).toBe(false);
  });
});
