import { z } from "zod";
import { Id } from "@/lib/schemas/common";

/** Query of every list endpoint: an opaque cursor (the last id seen) and a page size. */
export const PageQuery = z.object({
  cursor: Id.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Runs a cursor-paginated query. `fetch` gets Prisma's `take`/`cursor` arguments and must
 * order by a stable key ending in `id`, with the caller's scope in its `where`.
 *
 * Prisma positions a cursor by looking the cursor row up without that `where`, so another
 * tenant's id would work as an anchor (revealing that it exists, and where it sorts). The page
 * is therefore read from the cursor row itself (inclusive), which comes back only when it is in
 * the caller's own list; otherwise the answer is the empty page a missing id gets.
 */
export async function pageOf<T extends { id: string }>(
  page: PageQuery,
  fetch: (args: { take: number; skip?: number; cursor?: { id: string } }) => Promise<T[]>,
): Promise<Page<T>> {
  let rows: T[];
  if (page.cursor) {
    const fromCursor = await fetch({ take: page.limit + 2, skip: 0, cursor: { id: page.cursor } });
    if (fromCursor[0]?.id !== page.cursor) return { items: [], nextCursor: null };
    rows = fromCursor.slice(1);
  } else {
    rows = await fetch({ take: page.limit + 1 });
  }
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  return { items, nextCursor: hasMore ? items[items.length - 1].id : null };
}
