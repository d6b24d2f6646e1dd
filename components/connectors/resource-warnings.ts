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

export function resourceWarnings(
  row: { uri: string; mimeType: string | null; fetchConfig: unknown },
  siblings: { uri: string }[] = [],
): ResourceWarning[] {
  const warnings: ResourceWarning[] = [];
  if (isReservedUri(row.uri)) warnings.push({ level: "skipped", text: "Skipped: the anythingmcp: scheme is reserved for the platform's own resources." });
  else if (!isValidResourceUri(row.uri)) warnings.push({ level: "skipped", text: 'Skipped: not a valid absolute URI (it needs a scheme, e.g. "crm://schema").' });
  else {
    const key = normalizeResourceUri(row.uri);
    const clash = siblings.find((s) => s.uri !== row.uri && isValidResourceUri(s.uri) && normalizeResourceUri(s.uri) === key);
    const twin = siblings.filter((s) => s.uri === row.uri).length > 1;
    if (clash || twin) {
      warnings.push({ level: "skipped", text: `Not published: another resource has the same URI${clash ? ` (${clash.uri})` : ""}; neither is served.` });
    }
  }
  if (row.mimeType !== null && row.mimeType !== "" && plainMimeTypeOrNull(row.mimeType) === null) {
    warnings.push({ level: "note", text: "Served as text/plain: the MIME type is not a plain type/subtype." });
  }
  if (storedResourceContent({ mimeType: row.mimeType, fetchConfig: row.fetchConfig }).text === STORED_RESOURCE_PLACEHOLDER) {
    warnings.push({ level: "note", text: "No static text: clients get a placeholder (URLs are never fetched, stored objects never shown)." });
  }
  return warnings;
}
