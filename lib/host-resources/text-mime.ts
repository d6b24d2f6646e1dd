import { isUtf8 } from "node:buffer";
import { isTextMimeType } from "@/lib/mime/classify-mime-type";

/** One entry of a resources/read result (the specification's TextResourceContents | BlobResourceContents). */
export type ResourceContents = { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };

/**
 * Seed 000: "A text MIME type comes back as text. Anything else comes back base64-encoded in
 * blob." Text for a text MIME type whose bytes are valid UTF-8 (a `text` field cannot carry other
 * bytes without corrupting them); base64 `blob` for everything else.
 */
export function toResourceContents(uri: string, mimeType: string, bytes: Buffer): ResourceContents {
  if (isTextMimeType(mimeType) && isUtf8(bytes)) return { uri, mimeType, text: bytes.toString("utf8") };
  return { uri, mimeType, blob: bytes.toString("base64") };
}
