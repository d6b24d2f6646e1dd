import type { Caller } from "@/lib/auth/caller";
import { sessionUserIdFromRequest } from "@/lib/auth/sessions";

/** Browser sessions (better-auth's session cookie) reach the same handlers as bearer credentials. */
export async function callerFromSession(request: Request): Promise<Caller | null> {
  const userId = await sessionUserIdFromRequest(request);
  return userId ? { kind: "user", userId, apiKey: null } : null;
}
