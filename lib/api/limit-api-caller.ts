import type { Caller } from "@/lib/auth/caller";

/** Per-credential budget of the admin JSON API. */
export async function limitApiCaller(_caller: Caller, _request: Request): Promise<void> {}
