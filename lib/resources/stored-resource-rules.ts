/**
 * Validity rules for stored resources (table `mcp_resources`). Pure functions: the admin API
 * uses them to refuse bad input, and the MCP serving layer uses the same ones to skip rows
 * that reached the table some other way (imports, older versions, plain SQL).
 */

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":". */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Whitespace and control characters never appear in a URI (RFC 3986 §2). */
const FORBIDDEN_CHARS = /[\s\u0000-\u001f\u007f]/;
/** "%" must start a pct-encoded triplet (RFC 3986 §2.1). */
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
const MAX_URI_LENGTH = 2048;

/** The scheme the platform reserves for the resources it publishes itself. */
export const RESERVED_SCHEME = "anythingmcp";

/**
 * True when `uri` is an absolute URI: an RFC 3986 scheme, something after the colon, no
 * whitespace or control characters, well-formed percent escapes, and parseable by WHATWG URL.
 */
export function isValidResourceUri(uri: unknown): uri is string {
  if (typeof uri !== "string" || uri.length === 0 || uri.length > MAX_URI_LENGTH) return false;
  const scheme = SCHEME.exec(uri);
  if (!scheme || uri.length === scheme[0].length) return false;
  if (FORBIDDEN_CHARS.test(uri) || BAD_PERCENT.test(uri)) return false;
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}

/** True when `uri` uses the reserved `anythingmcp:` scheme (schemes are case-insensitive). */
export function isReservedUri(uri: unknown): boolean {
  return typeof uri === "string" && uri.trimStart().toLowerCase().startsWith(`${RESERVED_SCHEME}:`);
}

/** True when the literal text before a URI template's first expression is in the reserved scheme. */
export function isReservedUriTemplate(uriTemplate: unknown): boolean {
  return typeof uriTemplate === "string" && isReservedUri(uriTemplate.split("{")[0]);
}

/** RFC 6838 §4.2 restricted-name. */
const RESTRICTED_NAME = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}";
const PLAIN_MIME_TYPE = new RegExp(`^${RESTRICTED_NAME}/${RESTRICTED_NAME}$`);

/**
 * The lowercased `type/subtype` when `value` is a plain media type (no parameters, no
 * wildcards, no spaces); otherwise null — the serving layer then uses `text/plain`.
 */
export function plainMimeTypeOrNull(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return PLAIN_MIME_TYPE.test(trimmed) ? trimmed.toLowerCase() : null;
}
