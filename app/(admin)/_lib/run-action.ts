import "server-only";
import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import type { Caller } from "@/lib/auth/caller";
import { getSessionUserId } from "@/lib/auth/current-user";
import { toAppError } from "@/lib/api/problem";
import { logger } from "@/lib/log";
import { announceConfigChange } from "@/lib/ops/config-changes";
import type { ActionResult } from "@/app/(admin)/_lib/action-result";

/**
 * The frame of every admin server action: the signed-in user becomes the Caller (re-read from
 * the session cookie on each call: an action is a public POST endpoint), `work` parses its
 * input with the lib's zod schema and calls one domain function, and domain errors become a
 * form/toast result instead of an error page. Writes refresh every rendered page.
 */
export async function runAction<T>(work: (caller: Caller) => Promise<T>, opts: { revalidate?: boolean } = {}): Promise<ActionResult<T>> {
  const userId = await getSessionUserId();
  if (!userId) return { ok: false, error: "Your session has ended. Sign in again." };
  try {
    const data = await work({ kind: "user", userId, apiKey: null });
    if (opts.revalidate !== false) {
      revalidatePath("/", "layout");
      announceConfigChange();
    }
    return { ok: true, data };
  } catch (e) {
    unstable_rethrow(e); // redirect() and notFound() are not errors
    const appError = toAppError(e);
    if (!appError) {
      logger.error({ err: e }, "admin action failed unexpectedly");
      return { ok: false, error: "Something went wrong on our side. Try again in a moment." };
    }
    const fieldErrors: Record<string, string> = {};
    for (const { path, message } of appError.extra.errors ?? []) fieldErrors[path] ??= message;
    return { ok: false, error: appError.message, ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) };
  }
}
