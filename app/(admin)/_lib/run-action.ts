import "server-only";
import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import type { Caller } from "@/lib/auth/caller";
import { getSessionUserId } from "@/lib/auth/current-user";
import { toAppError } from "@/lib/api/problem";
import { logger } from "@/lib/log";
import { withAnnouncedChanges } from "@/lib/config-version/config-version";
import type { ActionResult } from "@/components/forms/action-result";
import { etagOf, type IfMatch } from "@/lib/api/if-match";

/** What the admin reads when their save lost the race (the API's 412), in plain words. */
const STALE =
  "Somebody else changed this after you opened it, so your changes were not saved. Reload the page to see the current version, then make your change again.";

/**
 * The frame of every admin server action: the signed-in user becomes the Caller (re-read from
 * the session cookie on each call: an action is a public POST endpoint), `work` parses its
 * input with the lib's zod schema and calls one domain function, and domain errors become a
 * form/toast result instead of an error page. Writes refresh every rendered page, and the
 * configuration changes the work bumped are announced once it is over (lib/config-version).
 */
export async function runAction<T>(work: (caller: Caller) => Promise<T>, opts: { revalidate?: boolean } = {}): Promise<ActionResult<T>> {
  const userId = await getSessionUserId();
  if (!userId) return { ok: false, error: "Your session has ended. Sign in again." };
  return runAnonymousAction(() => work({ kind: "user", userId, apiKey: null }), opts);
}

/**
 * The same frame for the few actions of pages open without a session (an invitation link
 * makes its new account here): no Caller, the work authorizes itself (the link's secret).
 */
export async function runAnonymousAction<T>(work: () => Promise<T>, opts: { revalidate?: boolean } = {}): Promise<ActionResult<T>> {
  try {
    const data = await withAnnouncedChanges(work);
    if (opts.revalidate !== false) revalidatePath("/", "layout");
    return { ok: true, data };
  } catch (e) {
    unstable_rethrow(e); // redirect() and notFound() are not errors
    return failureOf(e);
  }
}

function failureOf(e: unknown): ActionResult<never> {
  const appError = toAppError(e);
  if (!appError) {
    logger.error({ err: e }, "admin action failed unexpectedly");
    return { ok: false, error: "Something went wrong on our side. Try again in a moment." };
  }
  if (appError.code === "precondition_failed") return { ok: false, error: STALE, stale: true };
  const fieldErrors: Record<string, string> = {};
  for (const { path, message } of appError.extra.errors ?? []) fieldErrors[path] ??= message;
  return { ok: false, error: appError.message, ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) };
}

/**
 * runAction for saving one object that the form loaded at `version` (its ETag, handed to the
 * form by the page and kept by useObjectVersion): the domain write compares it under the
 * object's row lock, so a save over somebody else's newer change is refused (the admin is told
 * so) instead of silently overwriting it; success carries the saved object's new version.
 * No version (an older form): last write wins, as in the API without If-Match.
 */
export async function runVersionedAction<T>(
  version: unknown,
  work: (caller: Caller, ifMatch: IfMatch | undefined) => Promise<T>,
  opts: { revalidate?: boolean } = {},
): Promise<ActionResult<T>> {
  const ifMatch = typeof version === "string" && version.length > 0 && version.length <= 200 ? [version] : undefined;
  const result = await runAction((caller) => work(caller, ifMatch), opts);
  return result.ok && result.data !== null && result.data !== undefined ? { ...result, version: etagOf(result.data) } : result;
}
