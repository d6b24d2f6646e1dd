import { cookies, headers } from "next/headers";
import { SESSION_MAX_AGE_SEC, sessionCookieName, usesSecureCookies, type SessionUser } from "@/lib/auth/session-token";
import { openSession, revokeSessionToken } from "@/lib/auth/sessions";

/** For server actions: sign the browser in (a new session row) or out (that row deleted). */

async function isHttpsRequest(): Promise<boolean> {
  if (usesSecureCookies()) return true;
  return (await headers()).get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export async function startSession(user: Pick<SessionUser, "id">): Promise<void> {
  // Next encodes the value, as better-auth does its own Set-Cookie.
  (await cookies()).set(sessionCookieName(), await openSession(user.id), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: await isHttpsRequest(),
    maxAge: SESSION_MAX_AGE_SEC,
  });
}

/** Deletes the session server-side, so a copy of the cookie is worth nothing afterwards. */
export async function endSession(): Promise<void> {
  const store = await cookies();
  const name = sessionCookieName();
  await revokeSessionToken(store.get(name)?.value);
  store.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: name.startsWith("__Secure-") });
}
