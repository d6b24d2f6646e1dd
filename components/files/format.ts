/** Display helpers of the files page (no React). */

import { essence } from "@/lib/mime/classify-mime-type";

export { formatBytes } from "@/lib/files/format-bytes";

/** Types shown as text in the preview: exactly those the host-resources extension serves as text. */
export { isTextMimeType as isTextType } from "@/lib/mime/classify-mime-type";

/**
 * Images are tried in an <img>; a type the browser cannot draw (TIFF, HEIC in most browsers)
 * falls back to "no preview" through the element's error event rather than a list kept here.
 */
export function isImageType(mimeType: string): boolean {
  return essence(mimeType).startsWith("image/");
}

/** "a, b ,, c" → ["a", "b", "c"] without duplicates (how the API stores tags). */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(",").map((t) => t.trim()).filter(Boolean))];
}

/** The limits the API enforces on tags (lib/files/schemas.ts), checked before sending. */
export function tagsProblem(tags: string[]): string | null {
  if (tags.length > 50) return "Use at most 50 tags.";
  const long = tags.find((t) => t.length > 100);
  return long ? `The tag "${long.slice(0, 20)}…" is longer than 100 characters.` : null;
}

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A stable, server-rendered date ("May 3, 2026, 2:05 PM UTC"). */
export function formatDate(iso: string): string {
  return `${dateFormat.format(new Date(iso))} UTC`;
}
