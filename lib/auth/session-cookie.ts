import { cookies, headers } from "next/headers";
import {
  SESSION_MAX_AGE_SEC,
  createSessionToken,
  sessionCookieName,
  usesSecureCookies,
  type SessionUser,
} from "@/lib/auth/session-token";

/** For server actions: sign the browser in or out by writing next-auth's session cookie. */

async function isHttpsRequest(): Promise<boolean> {
  if (usesSecureCookies()) return true;
  return (await headers()).get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export async function startSession(user: SessionUser): Promise<void> {
  const token = await createSessionToken(user);
  (await cookies()).set(sessionCookieName(), token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: await isHttpsRequest(),
    maxAge: SESSION_MAX_AGE_SEC,
  });
}

/** JWT sessions live only in the cookie, so removing it (and any chunks) signs out. */
export async function endSession(): Promise<void> {
  const store = await cookies();
  const name = sessionCookieName();
  for (const cookie of store.getAll()) {
    if (cookie.name === name || cookie.name.startsWith(`${name}.`)) {
      store.set(cookie.name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: name.startsWith("__Secure-") });
    }
  }
}
