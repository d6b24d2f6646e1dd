import { fileTypeFromBuffer } from "file-type";
import { isTextMimeType, mimeTypeFromName } from "@/lib/mime/classify-mime-type";

/**
 * A file's MIME type. Positive identification by content wins (file-type reads magic bytes);
 * otherwise the name's extension decides (the `mime-types` table), so `pixel.png` whose bytes
 * start with the PNG signature but do not parse is still `image/png`. Content that is text (valid
 * UTF-8 without NUL) always gets a text type — the extension's when that is one, else
 * `text/plain` (a TypeScript `.ts` is not an MPEG stream) — so every text upload reads back as
 * text. Nothing known: `application/octet-stream`. The type the client declared is not trusted.
 */
export async function sniffMimeType(head: Uint8Array, name: string, isText: boolean): Promise<string> {
  const detected = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  if (detected) return detected.mime;
  const byName = mimeTypeFromName(name);
  if (isText) return byName && isTextMimeType(byName) ? byName : "text/plain";
  return byName ?? "application/octet-stream";
}
