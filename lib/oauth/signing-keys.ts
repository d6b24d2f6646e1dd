import { createHash } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import type { Jwk, JwtOptions } from "better-auth/plugins";
import { logger } from "@/lib/log";

/**
 * The token signing keys the authorization server may use: those whose private half decrypts
 * with the current secret. better-auth stores each key encrypted with AUTH_SECRET; after the
 * secret changes, its own lookup still picks the old key and every token request ends in a
 * 500 ("Failed to decrypt private key"). Leaving such keys out makes it mint a fresh one on
 * the next signature (a rotation): tokens signed with the old key stop verifying, as they
 * must once the secret that protected it is gone.
 */

/** `<secret digest>:<key id>` → whether it decrypts (a key never changes, so one check each). */
const checked = new Map<string, boolean>();

type Context = Parameters<NonNullable<NonNullable<JwtOptions["adapter"]>["getJwks"]>>[0];

async function decrypts(context: Context, key: Jwk): Promise<boolean> {
  const secret = context.context.secretConfig;
  const digest = createHash("sha256").update(typeof secret === "string" ? secret : JSON.stringify([...secret.keys])).digest("hex").slice(0, 16);
  const cacheKey = `${digest}:${key.id}`;
  const cached = checked.get(cacheKey);
  if (cached !== undefined) return cached;
  const ok = await symmetricDecrypt({ key: secret, data: JSON.parse(key.privateKey) })
    .then(() => true)
    .catch(() => false);
  if (!ok) logger.warn({ keyId: key.id }, "OAuth signing key not readable with the current AUTH_SECRET (the secret changed): left out, a new key is made");
  checked.set(cacheKey, ok);
  return ok;
}

export const readableSigningKeys: NonNullable<JwtOptions["adapter"]> = {
  async getJwks(context) {
    const keys = await context.context.adapter.findMany<Jwk>({ model: "jwks" });
    const readable: Jwk[] = [];
    for (const key of keys) if (await decrypts(context, key)) readable.push(key);
    return readable;
  },
};
