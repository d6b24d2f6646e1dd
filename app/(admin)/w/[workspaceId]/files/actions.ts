"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { deleteFile, updateFile } from "@/lib/files/files";
import { UpdateFileBody } from "@/lib/files/schemas";

/** Rename, retag, share or unshare: the same lib call as `PATCH /files/{fileId}`. */
export async function updateFileAction(fileId: string, input: unknown) {
  return runAction((caller) => updateFile(caller, Id.parse(fileId), UpdateFileBody.parse(input)));
}

/** The same lib call as `DELETE /files/{fileId}`. */
export async function deleteFileAction(fileId: string) {
  return runAction(async (caller) => {
    await deleteFile(caller, Id.parse(fileId));
    return null;
  });
}
