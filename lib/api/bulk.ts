import { z } from "zod";
import { Id } from "@/lib/schemas/common";
import { toAppError } from "@/lib/api/problem";

/**
 * Bulk actions: the same domain operation as the single action, once per object, each in its
 * own transaction and audited as its own event. One object failing (gone, not the caller's)
 * does not stop the others; the answer says what happened to each.
 */
export const BULK_MAX = 200;

export const BulkIdsBody = z
  .object({ ids: z.array(Id).min(1).max(BULK_MAX).meta({ description: `The objects to act on (at most ${BULK_MAX}; repeats are acted on once).` }) })
  .meta({ id: "BulkIds" });
export type BulkIdsBody = z.infer<typeof BulkIdsBody>;

export const BulkResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        error: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: "Why this one was not done (e.g. `not_found`: missing or not yours)." }),
      }),
    ),
    done: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: "BulkResult" });
export type BulkResult = z.infer<typeof BulkResult>;

/** Runs `one` for each distinct id in order. An error that is not the caller's (the database away) stops the batch. */
export async function runBulk(ids: string[], one: (id: string) => Promise<unknown>): Promise<BulkResult> {
  const results: BulkResult["results"] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await one(id);
      results.push({ id, ok: true });
    } catch (e) {
      const known = toAppError(e);
      if (!known || known.code === "unavailable") throw e;
      results.push({ id, ok: false, error: { code: known.code, message: known.message } });
    }
  }
  const done = results.filter((r) => r.ok).length;
  return { results, done, failed: results.length - done };
}
