import { isUtf8 } from "node:buffer";

/**
 * Textual types outside text/* read back as `text` (seed 000: "A text MIME type comes back as
 * text"), including every textual type the files workspace itself gives an upload by its name
 * (lib/files/sniff-mime.ts), so a .jsonl, .sql or .toml file is not handed out as a blob.
 */
const TEXT_TYPES = new Set([
  "application/json",
  "application/jsonl",
  "application/x-ndjson",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/sql",
  "application/rtf",
  "application/javascript",
  "application/ecmascript",
  "application/graphql",
]);

/**
 * text/*, JSON, XML, YAML and the structured-syntax suffixes +json, +xml, +yaml. Parameters
 * (`; charset=…`) are ignored: whether the bytes are UTF-8 is checked on the bytes themselves.
 */
export function isTextMimeType(mimeType: string): boolean {
  const type = mimeType.split(";")[0].trim().toLowerCase();
  if (type.startsWith("text/")) return true;
  if (TEXT_TYPES.has(type)) return true;
  return /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+(json|xml|yaml)$/.test(type);
}

/** One entry of a resources/read result (the specification's TextResourceContents | BlobResourceContents). */
export type ResourceContents = { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

/** Text for a text MIME type whose bytes are valid UTF-8; base64 `blob` for everything else. */
export function toResourceContents(uri: string, mimeType: string, bytes: Buffer): ResourceContents {
  if (isTextMimeType(mimeType) && isUtf8(bytes)) return { uri, mimeType, text: bytes.toString("utf8") };
  return { uri, mimeType, blob: bytes.toString("base64") };
}
