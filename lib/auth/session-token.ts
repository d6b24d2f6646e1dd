import { decode, encode, type JWT } from "next-auth/jwt";
import { getOrCreateInstanceSecret } from "@/lib/auth/instance-secret";
import { setting } from "@/lib/config/settings";

/**
 * The session is a next-auth JWT (encrypted JWE) in next-auth's own cookie, so that
 * `getServerSession`, `getToken` in proxy.ts and the sign-in server action all agree on it.
 */

/** A signed-in browser stays signed in for a week of inactivity at most. */
export const SESSION_MAX_AGE_SEC = 7 * 24 * 60 * 60;

/** NEXTAUTH_SECRET when configured, else one derived from SECRET_KEY or generated into ./.data. */
export function authSecret(): string {
  return setting("NEXTAUTH_SECRET") || setting("AUTH_SECRET") || getOrCreateInstanceSecret("nextauth-secret");
}

/**
 * Whether the platform is served over https (NEXTAUTH_URL or PUBLIC_URL says so): then the
 * session cookie is `Secure` and carries next-auth's `__Secure-` name, which browsers only accept
 * over https. Every reader and writer of the cookie asks this, so they agree on its name.
 */
export function usesSecureCookies(): boolean {
  return [setting("NEXTAUTH_URL"), setting("PUBLIC_URL")].some((url) => url?.startsWith("https://"));
}

export function sessionCookieName(): string {
  return usesSecureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

export async function createSessionToken(user: SessionUser): Promise<string> {
  const token: JWT = { sub: user.id, email: user.email, name: user.name };
  return encode({ token, secret: authSecret(), maxAge: SESSION_MAX_AGE_SEC });
}

/** The user id inside a session token, or null when it is missing, forged or expired. */
export async function userIdFromSessionToken(token: string | undefined): Promise<string | null> {
  if (!token) return null;
  try {
    const payload = await decode({ token, secret: authSecret() });
    return typeof payload?.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/** Reassembles next-auth's cookie (it splits large tokens into `name.0`, `name.1`, ...). */
export function sessionTokenFromCookieHeader(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  const name = sessionCookieName();
  const cookies = new Map<string, string>();
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0) cookies.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim());
  }
  if (cookies.has(name)) return cookies.get(name);
  const chunks: string[] = [];
  for (let index = 0; cookies.has(`${name}.${index}`); index++) chunks.push(cookies.get(`${name}.${index}`)!);
  return chunks.length > 0 ? chunks.join("") : undefined;
}

/**
 * The signed-in user of a browser request (cookie only; bearer tokens are the API's business).
 * For route handlers that accept either a session or an API key.
 */
export async function sessionUserIdFromRequest(request: Request): Promise<string | null> {
  return userIdFromSessionToken(sessionTokenFromCookieHeader(request.headers.get("cookie")));
}
