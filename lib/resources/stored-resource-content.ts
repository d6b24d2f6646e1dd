import type { SnapshotStoredResource } from "@/lib/mcp/visibility/snapshot-types";
import { isReservedUri, isValidResourceUri, plainMimeTypeOrNull } from "@/lib/resources/stored-resource-rules";

/**
 * What a stored resource row (`mcp_resources`) serves (seed 004 "Stored resources"). Only
 * static text: `fetchConfig.text`, else `fetchConfig.content`, else a fixed placeholder.
 * Nothing here fetches a URL or serializes a stored object: those objects can hold credentials.
 */

/** Served for rows without static text (a `url` to fetch, a data object, nothing at all). */
export const STORED_RESOURCE_PLACEHOLDER =
  "This resource has no static text content. Only static text is served for stored resources: remote URLs are not fetched and stored objects are not shown.";

export interface StoredResourceContent {
  text: string;
  mimeType: string;
}

function ownString(config: unknown, field: "text" | "content"): string | null {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return null;
  if (!Object.prototype.hasOwnProperty.call(config, field)) return null;
  const value = (config as Record<string, unknown>)[field];
  return typeof value === "string" ? value : null;
}

/**
 * The text and media type a row serves: its static text with its own media type (text/plain
 * when it has none or one that is not a plain type/subtype), or the placeholder as text/plain.
 */
export function storedResourceContent(row: Pick<SnapshotStoredResource, "mimeType" | "fetchConfig">): StoredResourceContent {
  const text = ownString(row.fetchConfig, "text") ?? ownString(row.fetchConfig, "content");
  if (text === null) return { text: STORED_RESOURCE_PLACEHOLDER, mimeType: "text/plain" };
  return { text, mimeType: plainMimeTypeOrNull(row.mimeType) ?? "text/plain" };
}

/** False for rows that must be skipped: not a valid URI, or the reserved `anythingmcp:` scheme. */
export function isServableStoredUri(uri: unknown): uri is string {
  return isValidResourceUri(uri) && !isReservedUri(uri);
}
