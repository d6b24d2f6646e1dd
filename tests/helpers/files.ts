import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api } from "@/tests/helpers/api";

/** Helpers for tests of the files workspace. */

/** A 1×1 PNG (a real image, so file-type recognises it by its bytes). */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

export const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** Points the local blob store at a fresh directory for this test file; returns it. */
export function useTempFilesDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-files-"));
  process.env.SWITCHBOARD_FILES_DIR = dir;
  return dir;
}

/** Every file under the blob directory (committed blobs and temp files alike). */
export function filesOnDisk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((p) => path.join(dir, p))
    .filter((p) => fs.statSync(p).isFile());
}

export interface UploadPart {
  bytes: Buffer | string;
  name: string;
  /** The type the client claims for the part (the server sniffs instead). */
  type?: string;
  tags?: string[];
  visibility?: string;
}

export function uploadForm(part: UploadPart): FormData {
  const form = new FormData();
  for (const tag of part.tags ?? []) form.append("tags", tag);
  if (part.visibility !== undefined) form.append("visibility", part.visibility);
  form.append("file", new Blob([typeof part.bytes === "string" ? part.bytes : new Uint8Array(part.bytes)], { type: part.type ?? "application/octet-stream" }), part.name);
  return form;
}

/** Uploads one file through the JSON API as `token`. */
export function upload(token: string, workspaceId: string, part: UploadPart) {
  return api(token).post(`/api/v1/workspaces/${workspaceId}/files`, undefined, { raw: uploadForm(part) });
}
