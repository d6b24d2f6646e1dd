import type { Client } from "@modelcontextprotocol/client";

/**
 * Walks the pages of one of an upstream's lists (prompts, resources, resource templates)
 * ourselves instead of letting the SDK aggregate them: an upstream decides how many entries
 * it lists, so we stop asking once we hold as many usable ones as we may keep, and a list
 * whose pagination never ends stops at MAX_PAGES with what it gave (the SDK's own walk
 * throws there, which would publish none of them).
 */

export type CatalogListMethod = "prompts/list" | "resources/list" | "resources/templates/list";

const MAX_PAGES = 64;

export interface ListedPages<T> {
  /** Usable entries in the upstream's order, each key once, at most `limit`. */
  items: T[];
  /** False when the upstream may have listed more than was kept (limit or page cap reached). */
  complete: boolean;
}

export async function listUpstreamPages<T>(
  client: Client,
  method: CatalogListMethod,
  field: "prompts" | "resources" | "resourceTemplates",
  keyOf: (item: T) => string | null,
  limit: number,
  options: { timeout: number; signal: AbortSignal },
): Promise<ListedPages<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request({ method, ...(cursor !== undefined ? { params: { cursor } } : {}) }, options)) as Record<string, unknown>;
    const listed = Array.isArray(result[field]) ? (result[field] as T[]) : [];
    for (const item of listed) {
      const key = keyOf(item);
      if (key === null || seen.has(key)) continue;
      if (items.length >= limit) return { items, complete: false };
      seen.add(key);
      items.push(item);
    }
    const next = result.nextCursor;
    // A cursor that does not move would list the same page forever.
    if (typeof next !== "string" || next === cursor) return { items, complete: true };
    cursor = next;
  }
  return { items, complete: false };
}
