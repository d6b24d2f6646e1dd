import { Readable } from "node:stream";
import type { Caller } from "@/lib/auth/caller";
import { openFileContent } from "@/lib/files/files";
import { uploadFile } from "@/lib/files/upload";
import type { FileView } from "@/lib/files/file-view";

/** HTTP adapters of the files domain: Request in, Response out, nothing else. */

/** Streams the request's multipart body into an upload (never reads it whole). */
export function uploadFromRequest(caller: Caller, workspaceId: string, request: Request): Promise<FileView> {
  const declared = request.headers.get("content-length");
  return uploadFile(caller, workspaceId, {
    body: request.body ? Readable.fromWeb(request.body as import("node:stream/web").ReadableStream) : null,
    contentType: request.headers.get("content-type"),
    contentLength: declared !== null && /^\d+$/.test(declared) ? Number(declared) : null,
  });
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A file's bytes as a download: its MIME type, length, attachment disposition, no sniffing. */
export async function fileContentResponse(caller: Caller, fileId: string): Promise<Response> {
  const { file, stream } = await openFileContent(caller, fileId);
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    status: 200,
    headers: {
      "content-type": file.mimeType,
      "content-length": String(file.size),
      "content-disposition": contentDisposition(file.name),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      // Even if a browser were to render it (HTML, SVG), it runs nothing in our origin.
      "content-security-policy": "sandbox",
    },
  });
}
