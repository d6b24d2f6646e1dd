/** Display helpers of the files page (no React). */

const UNITS = ["KB", "MB", "GB", "TB"];

/** 1536 → "1.5 KB" (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${UNITS[unit]}`;
}

/** Types shown as text in the preview (the same families the host-resources extension serves as text). */
export function isTextType(mimeType: string): boolean {
  const type = mimeType.split(";")[0].trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    type.endsWith("+json") ||
    type.endsWith("+xml") ||
    ["application/json", "application/xml", "application/yaml", "application/x-yaml", "application/javascript", "application/x-ndjson", "application/sql"].includes(type)
  );
}

/** Types every browser renders in an <img>. */
export function isImageType(mimeType: string): boolean {
  return ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon"].includes(
    mimeType.split(";")[0].trim().toLowerCase(),
  );
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
