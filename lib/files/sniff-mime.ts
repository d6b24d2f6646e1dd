import path from "node:path";
import { fileTypeFromBuffer } from "file-type";

/**
 * Types of text formats by extension. file-type recognises binary formats by their magic
 * bytes and has nothing to say about text, so for text the name is the only hint there is.
 */
export const TEXT_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".txt": "text/plain",
  ".log": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".ndjson": "application/x-ndjson",
  ".geojson": "application/geo+json",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".py": "text/x-python",
  ".sql": "application/sql",
  ".ics": "text/calendar",
  ".vcf": "text/vcard",
  ".rtf": "application/rtf",
  ".toml": "application/toml",
};

/**
 * A file's MIME type: what its content says (file-type), else what its name says, else
 * `text/plain` for valid UTF-8 and `application/octet-stream` for anything else. The type the
 * client declared for the part is not trusted.
 */
export async function sniffMimeType(head: Uint8Array, name: string, isText: boolean): Promise<string> {
  const detected = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  if (detected) return detected.mime;
  const byName = TEXT_BY_EXTENSION[path.extname(name).toLowerCase()];
  if (byName) return byName;
  return isText ? "text/plain" : "application/octet-stream";
}
