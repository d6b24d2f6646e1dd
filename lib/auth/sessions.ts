import { SESSION_UPDATE_AGE_SEC } from "@/lib/auth/people-auth-options";
import { SESSION_MAX_AGE_SEC, signSessionToken, verifiedSessionToken, sessionTokenFromCookieHeader, type SessionUser } from "@/lib/auth/session-token";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { authorizationServer } from "@/lib/oauth/authorization-server";

/**
 * Server-side sessions for people, kept by better-auth in auth_sessions (the same instance and
 * the same rows the OAuth authorization server reads, so a signed-in admin is signed in there
 * too). A session is a row: signing out deletes it, and deleting a user's rows signs them out
 * everywhere at the next request.
 */

async function context() {
  return authorizationServer().$context;
}

/** Opens a session for the user: its signed token, to be set as the cookie's value. */
export async function openSession(userId: string): Promise<string> {
  const session = await (await context()).internalAdapter.createSession(userId);
  return signSessionToken(session.token);
}

/** The same, encoded for a Cookie header as the browser sends it (tests build requests with it). */
export async function createSessionToken(user: Pick<SessionUser, "id"> & Partial<SessionUser>): Promise<string> {
  return encodeURIComponent(await openSession(user.id));
}

/** The user id of a live session named by a cookie value; null when forged, expired or revoked. */
export async function userIdFromSessionToken(cookieValue: string | undefined): Promise<string | null> {
  const token = verifiedSessionToken(cookieValue);
  if (!token) return null;
  const { internalAdapter } = await context();
  const found = await internalAdapter.findSession(token);
  const expiresAt = found?.session.expiresAt.getTime() ?? 0;
  if (!found || expiresAt <= Date.now()) return null;
  // Sliding expiry: "a week of inactivity at most", extended at most once a day.
  if (expiresAt - Date.now() < (SESSION_MAX_AGE_SEC - SESSION_UPDATE_AGE_SEC) * 1000) {
    await internalAdapter.updateSession(token, { expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SEC * 1000) });
  }
  return found.session.userId;
}

/** Ends the session a cookie value names (sign-out). */
export async function revokeSessionToken(cookieValue: string | undefined): Promise<void> {
  const token = verifiedSessionToken(cookieValue);
  if (token) await (await context()).internalAdapter.deleteSession(token);
}

/**
 * Ends every session of a user but the one `keepCookie` names: after a password change (the
 * browser that made it stays signed in), or when an account is taken away. Through Prisma, not
 * better-auth's adapter, so it can be part of the change's transaction (`client`); better-auth
 * keeps sessions in this table only (no secondary storage), so a deleted row is no session.
 */
export async function revokeUserSessions(userId: string, opts: { keepCookie?: string; client?: Pick<Prisma.TransactionClient, "session"> } = {}): Promise<number> {
  const keep = verifiedSessionToken(opts.keepCookie);
  const { count } = await (opts.client ?? db()).session.deleteMany({ where: { userId, ...(keep ? { token: { not: keep } } : {}) } });
  return count;
}

/**
 * The signed-in user of a browser request (cookie only; bearer tokens are the API's business).
 * For route handlers that accept either a session or an API key.
 */
export async function sessionUserIdFromRequest(request: Request): Promise<string | null> {
  return userIdFromSessionToken(sessionTokenFromCookieHeader(request.headers.get("cookie")));
}
