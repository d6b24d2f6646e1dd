import mime from "mime-types";

/**
 * The one MIME table of the product is the `mime-types` library (the IANA, Apache and nginx
 * registries as mime-db keeps them); nothing here lists types by hand. Pure, so the files page
 * in the browser and the server agree on what is text.
 */

/** `type/subtype`, lower case, without parameters (`; charset=…`). */
export function essence(mimeType: string): string {
  return mimeType.split(";")[0].trim().toLowerCase();
}

/**
 * Seed 000: "A text MIME type comes back as text." A type is text when the registry gives it a
 * charset (every text/* type, application/json, application/javascript, …) or when its syntax is
 * JSON, XML or YAML — the base types and the structured-syntax suffixes (+json, +xml, +yaml), which
 * are text by definition.
 */
export function isTextMimeType(mimeType: string): boolean {
  const type = essence(mimeType);
  if (mime.charset(type)) return true;
  return /^[a-z0-9!#$&^_.+-]+\/(?:[a-z0-9!#$&^_.+-]+\+)?(?:json|xml|yaml)$/.test(type);
}

/** The registered type of a file name's extension (`pixel.png` → `image/png`), or null. */
export function mimeTypeFromName(name: string): string | null {
  return mime.lookup(name) || null;
}
