import type { z } from "zod";

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * A page's list parameters (`q`, `sort`, `order`, `cursor`) read from its URL with the list
 * endpoint's own schema; a value the schema refuses (a hand-edited URL) is dropped rather than
 * breaking the page.
 */
export function readListParams<S extends z.ZodType>(schema: S, query: SearchParams, limit = 50): z.infer<S> {
  const raw: Record<string, string | number | undefined> = { limit };
  for (const key of ["q", "sort", "order", "cursor"]) raw[key] = first(query[key]);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete raw[String(issue.path[0])];
  return schema.parse(raw);
}
