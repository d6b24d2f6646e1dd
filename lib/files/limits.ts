import { AppError } from "@/lib/errors";

/** `files.size` is a 32-bit integer column: no single file may be larger than this. */
const MAX_FILE_BYTES = 2 ** 31 - 1;

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/** MAX_UPLOAD_BYTES (default 50 MiB) and WORKSPACE_QUOTA_BYTES (default 1 GiB), read at each upload. */
export function uploadLimits(): { maxUploadBytes: number; quotaBytes: number } {
  return {
    maxUploadBytes: Math.min(positiveInt(process.env.MAX_UPLOAD_BYTES, 50 * 1024 * 1024), MAX_FILE_BYTES),
    quotaBytes: positiveInt(process.env.WORKSPACE_QUOTA_BYTES, 1024 * 1024 * 1024),
  };
}

/** The upload is over MAX_UPLOAD_BYTES: 413. */
export function uploadTooLarge(maxUploadBytes: number): AppError {
  return new AppError("payload_too_large", `The file is larger than the upload limit of ${maxUploadBytes} bytes (MAX_UPLOAD_BYTES).`);
}

/**
 * The workspace's storage quota would be exceeded: also 413 (the request is too large for the
 * space left, not in conflict with another object's state), with a message that says so.
 */
export function quotaExceeded(quotaBytes: number, usedBytes: number, fileBytes?: number): AppError {
  const left = Math.max(0, quotaBytes - usedBytes);
  const need = fileBytes === undefined ? "" : ` The file has ${fileBytes} bytes;`;
  return new AppError(
    "payload_too_large",
    `The workspace's storage quota is full:${need} ${left} of ${quotaBytes} bytes are left (WORKSPACE_QUOTA_BYTES). Delete files to make room.`,
  );
}
