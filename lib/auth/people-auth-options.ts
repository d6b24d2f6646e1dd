import type { BetterAuthOptions } from "better-auth";
import { SESSION_COOKIE_PREFIX, SESSION_MAX_AGE_SEC, usesSecureCookies } from "@/lib/auth/session-token";

/**
 * What people's sign-in adds to the one better-auth instance (lib/oauth/authorization-server.ts):
 * its sessions are the admin console's sessions, in its cookie. Passwords are checked by
 * lib/auth/password-sign-in.ts (our scrypt hashes and the sign-in lockout), which then opens a
 * better-auth session (lib/auth/sessions.ts); better-auth's own email+password endpoints stay off,
 * so there is exactly one way in with a password.
 */

/** A session used at least this long after it was last extended is extended again. */
export const SESSION_UPDATE_AGE_SEC = 24 * 60 * 60;

export function peopleAuthOptions() {
  return {
    session: { expiresIn: SESSION_MAX_AGE_SEC, updateAge: SESSION_UPDATE_AGE_SEC },
    advanced: { cookiePrefix: SESSION_COOKIE_PREFIX, useSecureCookies: usesSecureCookies() },
  } satisfies Partial<BetterAuthOptions>;
}
