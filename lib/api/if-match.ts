import { createHash } from "node:crypto";
import { PreconditionFailedError } from "@/lib/errors";

/**
 * Optimistic concurrency for the admin API. An object's version is its entity tag: a digest of
 * the JSON the API answers for it, so every change that shows in its GET (a renamed field, a
 * replaced tool set, a child added) gives a new tag without a version column to keep in step.
 * A write that carries `If-Match` compares the tag of the object as it is *inside the write's
 * transaction, after its row lock* (lib/db/lock-row.ts), so two writers holding the same tag
 * cannot both pass: the second one waits for the lock, then sees the first one's change.
 */

/** What an If-Match header asked for: any current version (`*`) or one of the listed tags. */
export type IfMatch = "*" | readonly string[];

/** The strong entity tag of a JSON representation (what the ETag header carries). */
export function etagOf(representation: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(representation)).digest("base64url").slice(0, 27)}"`;
}

/** The If-Match header's tags (absent header: no precondition, last write wins). */
export function parseIfMatch(header: string | null): IfMatch | undefined {
  if (header === null) return undefined;
  if (header.trim() === "*") return "*";
  // Weak tags (W/"…") stay as written: If-Match compares strongly, so they never match.
  return header.split(",").map((tag) => tag.trim()).filter(Boolean);
}

/**
 * Throws PreconditionFailedError (412) unless `ifMatch` names the current representation.
 * `*` matches any existing object; a missing object is the caller's NotFoundError before this.
 */
export function assertIfMatch(ifMatch: IfMatch | undefined, current: unknown): void {
  if (ifMatch === undefined || ifMatch === "*") return;
  if (!ifMatch.includes(etagOf(current))) throw new PreconditionFailedError();
}
