import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { setting } from "@/lib/config/settings";

/** User API keys look like `sb_<40 base62-ish chars>`; only their sha256 is stored. */
export const API_KEY_PREFIX = "sb_";

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(30).toString("base64url");
  return { key, prefix: key.slice(0, 10), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Constant-time comparison of a presented token with the instance credential. */
export function isInstanceKey(token: string): boolean {
  const expected = setting("INSTANCE_API_KEY");
  if (!expected) return false;
  const a = createHash("sha256").update(token).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
