import { cookies } from "next/headers";
import { db } from "@/lib/db/client";
import { sessionCookieName, userIdFromSessionToken } from "@/lib/auth/session-token";

export interface CurrentUser {
  id: string;
  email: string;
  name: string | null;
  isInstanceOwner: boolean;
}

/** Reads the session cookie of the request being rendered (server components, server actions). */
export async function getSessionUserId(): Promise<string | null> {
  const store = await cookies();
  const name = sessionCookieName();
  const whole = store.get(name)?.value;
  if (whole) return userIdFromSessionToken(whole);
  const chunks = store
    .getAll()
    .filter((cookie) => cookie.name.startsWith(`${name}.`))
    .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)))
    .map((cookie) => cookie.value);
  return userIdFromSessionToken(chunks.join("") || undefined);
}

/**
 * The signed-in user, re-read from the database so a deleted account stops working at once
 * even though its session token has not expired.
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const userId = await getSessionUserId();
  if (!userId) return null;
  return db().user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, isInstanceOwner: true },
  });
}
