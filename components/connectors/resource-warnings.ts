import { isReservedUri, isValidResourceUri, plainMimeTypeOrNull } from "@/lib/resources/stored-resource-rules";
import { STORED_RESOURCE_PLACEHOLDER, storedResourceContent } from "@/lib/resources/stored-resource-content";
import { normalizeResourceUri } from "@/lib/resources/uri-normalization";

/**
 * What MCP clients will (not) get from a stored resource row, by the same rules the serving
 * layer applies (seed 004 "Stored resources", "Duplicate URIs"): said before it surprises anyone.
 */
export interface ResourceWarning {
  level: "skipped" | "note";
  text: string;
}

/**
 * The URI of another row that counts as the same resource as `uri` (equal once normalized),
 * or null. `siblings` may include the row itself once; the same URI twice is a duplicate.
 */
export function duplicateUriOf(uri: string, siblings: { uri: string }[]): string | null {
  if (!isValidResourceUri(uri) || isReservedUri(uri)) return null;
  const key = normalizeResourceUri(uri);
  const clash = siblings.find((s) => s.uri !== uri && isValidResourceUri(s.uri) && normalizeResourceUri(s.uri) === key);
  if (clash) return clash.uri;
  return siblings.filter((s) => s.uri === uri).length > 1 ? uri : null;
}

function uriWarningOf(uri: string, siblings: { uri: string }[]): ResourceWarning | null {
  if (uri.trim() === "") return null; // nothing typed yet is not a mistake yet
  if (isReservedUri(uri)) return { level: "skipped", text: "Skipped: the anythingmcp: scheme is reserved for the platform's own resources." };
  if (!isValidResourceUri(uri)) return { level: "skipped", text: 'Skipped: not a valid absolute URI (it needs a scheme, e.g. "crm://schema").' };
  const clash = duplicateUriOf(uri, siblings);
  if (!clash) return null;
  return { level: "skipped", text: `Not published: another resource has the same URI${clash !== uri ? ` (${clash})` : ""}; neither is served.` };
}

export function resourceWarnings(
  row: { uri: string; mimeType: string | null; fetchConfig: unknown },
  siblings: { uri: string }[] = [],
): ResourceWarning[] {
  const warnings: ResourceWarning[] = [];
  const uriWarning = uriWarningOf(row.uri, siblings);
  if (uriWarning) warnings.push(uriWarning);
  if (row.mimeType !== null && row.mimeType !== "" && plainMimeTypeOrNull(row.mimeType) === null) {
    warnings.push({ level: "note", text: "Served as text/plain: the MIME type is not a plain type/subtype." });
  }
  if (storedResourceContent({ mimeType: row.mimeType, fetchConfig: row.fetchConfig }).text === STORED_RESOURCE_PLACEHOLDER) {
    warnings.push({ level: "note", text: "No static text: clients get a placeholder (URLs are never fetched, stored objects never shown)." });
  }
  return warnings;
}
