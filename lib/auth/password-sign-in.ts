import { db } from "@/lib/db/client";
import { errorText, logger } from "@/lib/log";
import { burnPasswordVerification, hashPassword, needsRehash, verifyPassword } from "@/lib/auth/password";
import type { SessionUser } from "@/lib/auth/session-token";
import { setting } from "@/lib/config/settings";
import { textFlaw } from "@/lib/api/validate-text";
import { consume, getLimiter, resetKey, type Limiter } from "@/lib/ratelimit/limiter";

/**
 * Email + password sign-in: the sign-in page's server action, which then opens a better-auth
 * session (lib/auth/sessions.ts). Every attempt spends from two budgets: one per account *and* client
 * address (stops guessing one password from one place) and one per client address (stops trying
 * many accounts, or one account slowly, from one place). There is deliberately no budget per
 * account alone: a stranger could spend it from anywhere and lock the owner out, right password
 * and all. A stranger's failures only ever lock the stranger's own address out.
 */

export type PasswordSignInResult =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAfterMs: number };

/** Longer inputs are refused before hashing: nobody types them, attackers send them. */
const MAX_EMAIL_LENGTH = 320;
const MAX_PASSWORD_LENGTH = 1024;

export function loginLimiters(): { perAccountAndIp: Limiter; perIp: Limiter } {
  const durationSec = setting("LOGIN_WINDOW_SEC");
  return {
    perAccountAndIp: getLimiter("login-account-ip", { points: setting("LOGIN_MAX_PER_ACCOUNT"), durationSec }),
    perIp: getLimiter("login-ip", { points: setting("LOGIN_MAX_PER_IP"), durationSec }),
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function findUserByEmail(email: string) {
  return db().user.findFirst({
    where: { email: { equals: email, mode: "insensitive" } },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
}

/** Upgrades a hash made with older, cheaper parameters; failure only costs the upgrade. */
function rehashInBackground(userId: string, password: string): void {
  void hashPassword(password)
    .then((passwordHash) => db().user.update({ where: { id: userId }, data: { passwordHash } }))
    .catch((error: unknown) => logger.warn({ err: errorText(error), userId }, "password rehash failed"));
}

export async function signInWithPassword(input: {
  email: string;
  password: string;
  clientIp: string;
}): Promise<PasswordSignInResult> {
  const email = normalizeEmail(input.email);
  if (!email || !input.password || email.length > MAX_EMAIL_LENGTH || input.password.length > MAX_PASSWORD_LENGTH) {
    return { ok: false, reason: "invalid" };
  }
  // No account's email holds text the database cannot even compare (the sign-in form is a server action, not the edge).
  if (textFlaw(email) || textFlaw(input.password)) {
    return { ok: false, reason: "invalid" };
  }
  const { perAccountAndIp, perIp } = loginLimiters();
  const ipBudget = await consume(perIp, input.clientIp);
  if (!ipBudget.ok) return { ok: false, reason: "locked", retryAfterMs: ipBudget.retryAfterMs };
  const accountKey = `${email}|${input.clientIp}`;
  const accountBudget = await consume(perAccountAndIp, accountKey);
  if (!accountBudget.ok) return { ok: false, reason: "locked", retryAfterMs: accountBudget.retryAfterMs };

  const user = await findUserByEmail(email);
  if (!user?.passwordHash) {
    await burnPasswordVerification(input.password);
    return { ok: false, reason: "invalid" };
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) return { ok: false, reason: "invalid" };

  // A successful sign-in clears this address's failures on the account; the per-address budget
  // keeps counting.
  await resetKey(perAccountAndIp, accountKey).catch(() => undefined);
  if (needsRehash(user.passwordHash)) rehashInBackground(user.id, input.password);
  return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
}
