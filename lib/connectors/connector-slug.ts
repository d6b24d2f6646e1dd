import type { Prisma } from "@/lib/generated/prisma/client";

/** Connector slugs: derived from the name, unique per organization (`crm`, `crm-2`, …). */

const MAX_SLUG = 64;

/** Lowercase ASCII letters and digits separated by single hyphens; "connector" when empty. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG - 4)
    .replace(/-+$/g, "");
  return slug || "connector";
}

/** The first free slug of `base`, `base-2`, `base-3`, … in the organization. */
export async function freeConnectorSlug(tx: Pick<Prisma.TransactionClient, "connector">, orgId: string, base: string): Promise<string> {
  const taken = new Set(
    (await tx.connector.findMany({ where: { orgId, slug: { startsWith: base } }, select: { slug: true } })).map((c) => c.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
