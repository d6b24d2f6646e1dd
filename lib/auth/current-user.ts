import { cookies } from "next/headers";
import { db } from "@/lib/db/client";
import { sessionCookieName } from "@/lib/auth/session-token";
import { userIdFromSessionToken } from "@/lib/auth/sessions";

export interface CurrentUser {
  id: string;
  email: string;
  name: string | null;
  isInstanceOwner: boolean;
}

/** Reads the session cookie of the request being rendered (server components, server actions). */
export async function getSessionUserId(): Promise<string | null> {
  return userIdFromSessionToken((await cookies()).get(sessionCookieName())?.value);
}

/**
 * The signed-in user, re-read from the database so a deleted account stops working at once
 * even though its session has not expired.
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const userId = await getSessionUserId();
  if (!userId) return null;
  return db().user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, isInstanceOwner: true },
  });
}
