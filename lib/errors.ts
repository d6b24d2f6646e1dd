/**
 * Domain errors. Domain code throws these; the HTTP layer (lib/api/problem.ts) and the MCP
 * layer map them to their wire formats, so no domain function builds a Response.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "precondition_failed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "validation_failed"
  | "rate_limited"
  | "not_implemented"
  | "unavailable";

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** `drained`: a refused request body was read to its end, so the connection can be reused. */
    readonly extra: { errors?: FieldError[]; retryAfterMs?: number; drained?: boolean } = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** Missing, or not visible to the caller: the same answer either way, by design. */
export class NotFoundError extends AppError {
  constructor(what = "resource") {
    super("not_found", `The ${what} does not exist.`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super("conflict", message);
  }
}

/** An `If-Match` that no longer names the object's current version: somebody else changed it first. */
export class PreconditionFailedError extends AppError {
  constructor(message = "Somebody else changed this object after you loaded it; nothing was changed. Load it again and redo your change.") {
    super("precondition_failed", message);
  }
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[], message = "The request is not valid.") {
    super("validation_failed", message, { errors });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "This credential may not do that.") {
    super("forbidden", message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "A valid credential is required.") {
    super("unauthorized", message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterMs: number) {
    super("rate_limited", "Too many requests; retry later.", { retryAfterMs });
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
