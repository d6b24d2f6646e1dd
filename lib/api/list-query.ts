import { z } from "zod";
import { PageQuery } from "@/lib/api/pagination";

/**
 * Search and sorting on top of a list's cursor pages. Every parameter is optional: without them
 * a list answers exactly as before (its own default order). The cursor stays the last id seen,
 * and it only means something together with the same `q`, `sort` and `order`.
 */
export const SortOrder = z.enum(["asc", "desc"]);
export type SortOrder = z.infer<typeof SortOrder>;

export function listQuery<const S extends readonly [string, ...string[]]>(sorts: S, searches: string) {
  return PageQuery.extend({
    q: z.string().trim().max(200).optional().meta({ description: `Case-insensitive search in ${searches}.` }),
    sort: z.enum(sorts).optional().meta({ description: "What the list is sorted by (ties broken by id); the list's own order when absent." }),
    order: SortOrder.optional().meta({ description: "Ascending (default) or descending." }),
  });
}

export type ListQuery<S extends string = string> = PageQuery & { q?: string; sort?: S; order?: SortOrder };

/**
 * Prisma `orderBy` for a list: the chosen key, then id in the same direction, so the order is
 * total and a cursor row has one place in it. Sort keys are non-null columns: a cursor compares
 * the row's value, which NULL would not answer. `paths` maps a key to a column of a related row
 * ("email" → "user.email").
 */
export function listOrder<S extends string>(
  query: Pick<ListQuery<S>, "sort" | "order">,
  fallback: Record<string, SortOrder>[],
  paths: Partial<Record<S, string>> = {},
): Record<string, unknown>[] {
  if (!query.sort) return query.order ? fallback.map((o) => Object.fromEntries(Object.keys(o).map((k) => [k, query.order as SortOrder]))) : fallback;
  const order = query.order ?? "asc";
  if (query.sort === "id") return [{ id: order }];
  const path = (paths[query.sort] ?? query.sort).split(".");
  const key = path.reduceRight<unknown>((inner, field) => ({ [field]: inner }), order) as Record<string, unknown>;
  return [key, { id: order }];
}

/** A case-insensitive `contains` filter, or nothing when the search is empty. */
export function contains(q: string | undefined) {
  return q ? { contains: q, mode: "insensitive" as const } : undefined;
}

/** `OR` of the given fields containing `q` (an `AND` member), or an empty condition. */
export function searchIn<W>(q: string | undefined, fields: (match: NonNullable<ReturnType<typeof contains>>) => W[]): { OR?: W[] } {
  const match = contains(q);
  return match ? { OR: fields(match) } : {};
}

/** What a lib list function takes: any of a list's parameters, and a page size. */
export type ListArgs<Q> = Partial<Q> & { limit: number };
