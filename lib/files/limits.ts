import { AppError } from "@/lib/errors";
import { setting } from "@/lib/config/settings";
import { formatBytes } from "@/lib/files/format-bytes";

/** `files.size` is a 32-bit integer column: no single file may be larger than this. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

/** MAX_UPLOAD_BYTES (default 50 MiB) and WORKSPACE_QUOTA_BYTES (default 1 GiB), read at each upload. */
export function uploadLimits(): { maxUploadBytes: number; quotaBytes: number } {
  return {
    maxUploadBytes: Math.min(setting("MAX_UPLOAD_BYTES"), MAX_FILE_BYTES),
    quotaBytes: setting("WORKSPACE_QUOTA_BYTES"),
  };
}

/** The upload is over MAX_UPLOAD_BYTES: 413. */
export function uploadTooLarge(maxUploadBytes: number): AppError {
  return new AppError("payload_too_large", `The file is larger than the upload limit of ${formatBytes(maxUploadBytes)}.`);
}

/**
 * The workspace's storage quota would be exceeded: also 413 (the request is too large for the
 * space left, not in conflict with another object's state), with a message that says so.
 */
export function quotaExceeded(quotaBytes: number, usedBytes: number, fileBytes?: number): AppError {
  const left = Math.max(0, quotaBytes - usedBytes);
  const need = fileBytes === undefined ? "" : ` The file has ${formatBytes(fileBytes)};`;
  return new AppError(
    "payload_too_large",
    `The workspace's storage quota is full:${need} ${formatBytes(left)} of ${formatBytes(quotaBytes)} are left. Delete files to make room.`,
  );
}
