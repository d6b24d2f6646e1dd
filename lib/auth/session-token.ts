import { createHmac, timingSafeEqual } from "node:crypto";
import { getOrCreateInstanceSecret } from "@/lib/auth/instance-secret";
import { setting } from "@/lib/config/settings";

/**
 * The browser's session cookie: better-auth's signed session token (`<token>.<HMAC-SHA256>`),
 * naming a row of auth_sessions. This file is the part without a database (proxy.ts checks the
 * signature with it); lib/auth/sessions.ts creates, reads and revokes the rows.
 */

/** A signed-in browser stays signed in for a week of inactivity at most. */
export const SESSION_MAX_AGE_SEC = 7 * 24 * 60 * 60;

/** better-auth's cookie prefix (its own default is "better-auth"). */
export const SESSION_COOKIE_PREFIX = "switchboard";

/**
 * NEXTAUTH_SECRET (or AUTH_SECRET) when configured, else one derived from SECRET_KEY or generated
 * into ./.data — the same secret as before the move to better-auth, under the same name.
 */
export function authSecret(): string {
  return setting("NEXTAUTH_SECRET") || setting("AUTH_SECRET") || getOrCreateInstanceSecret("nextauth-secret");
}

/**
 * Whether the platform is served over https (NEXTAUTH_URL or PUBLIC_URL says so): then the
 * session cookie is `Secure` and carries the `__Secure-` name, which browsers only accept over
 * https. Every reader and writer of the cookie asks this, so they agree on its name.
 */
export function usesSecureCookies(): boolean {
  return [setting("NEXTAUTH_URL"), setting("PUBLIC_URL")].some((url) => url?.startsWith("https://"));
}

export function sessionCookieName(): string {
  return `${usesSecureCookies() ? "__Secure-" : ""}${SESSION_COOKIE_PREFIX}.session_token`;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

function signature(token: string): string {
  return createHmac("sha256", authSecret()).update(token).digest("base64");
}

/**
 * A session token with its signature, as better-auth signs its cookie (better-call's signed
 * cookie; the Set-Cookie header carries it URI-encoded).
 */
export function signSessionToken(token: string): string {
  return `${token}.${signature(token)}`;
}

/** The session token inside a cookie value (encoded or not), or null when the signature is not ours. */
export function verifiedSessionToken(cookieValue: string | undefined): string | null {
  if (!cookieValue) return null;
  let value: string;
  try {
    value = decodeURIComponent(cookieValue);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(signature(token));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** The session cookie's value in a Cookie header. */
export function sessionTokenFromCookieHeader(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  const name = sessionCookieName();
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
