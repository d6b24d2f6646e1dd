import { z } from "zod";

/** Query of every list endpoint: an opaque cursor (the last id seen) and a page size. */
export const PageQuery = z.object({
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Runs a cursor-paginated query. `fetch` gets Prisma's `take`/`skip`/`cursor` arguments and
 * must order by a stable key ending in `id`.
 */
export async function pageOf<T extends { id: string }>(
  page: PageQuery,
  fetch: (args: { take: number; skip?: number; cursor?: { id: string } }) => Promise<T[]>,
): Promise<Page<T>> {
  const rows = await fetch({
    take: page.limit + 1,
    ...(page.cursor ? { skip: 1, cursor: { id: page.cursor } } : {}),
  });
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  return { items, nextCursor: hasMore ? items[items.length - 1].id : null };
}
