import { z } from "zod";
import { AppError, type ErrorCode, type FieldError, isAppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { isDatabaseUnavailable, noteDatabaseUnavailable } from "@/lib/db/unavailable";

/** The one mapper from thrown errors to `application/problem+json` answers. */

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  not_implemented: 501,
  unavailable: 503,
};

const TITLE: Record<ErrorCode, string> = {
  bad_request: "Bad request",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  not_found: "Not found",
  conflict: "Conflict",
  precondition_failed: "Precondition failed",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  validation_failed: "Validation failed",
  rate_limited: "Too many requests",
  not_implemented: "Not implemented",
  unavailable: "Service unavailable",
};

export function zodIssuesToFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

/** Prisma's known request errors carry a `code`; map the ones a caller can cause. */
/** 22021: invalid byte sequence (0x00); 22P05: unsupported Unicode escape (\u0000, a lone \ud800 in jsonb). */
const UNSTORABLE_TEXT_CODES = new Set(["22021", "22P05"]);

/** The PostgreSQL SQLSTATE under a Prisma driver-adapter error, if any. */
function postgresCodeOf(e: unknown): string | undefined {
  const meta = (e as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } })?.meta;
  const code = meta?.driverAdapterError?.cause?.originalCode;
  return typeof code === "string" ? code : undefined;
}

/** "organizations_slug_key" (table organizations) → "slug"; "tools_connector_id_name_key" → "name". */
function uniqueFieldOf(index: string, table: string): string | null {
  const columns = index.replace(new RegExp(`^${table}_`), "").replace(/_key$/, "").replace(/^(?:[a-z]+_id_)+/, "");
  return /^[a-z_]+$/.test(columns) ? columns : null;
}

/**
 * A unique value that is taken (P2002), in words: "An organization with that slug already
 * exists: choose another slug.", and the field named like a validation error, so a form can
 * put the message under the input.
 */
function takenValue(e: unknown): AppError {
  const meta = (e as { meta?: { modelName?: unknown; driverAdapterError?: { cause?: { constraint?: { index?: unknown }; table?: unknown } } } }).meta;
  const cause = meta?.driverAdapterError?.cause;
  const index = typeof cause?.constraint?.index === "string" ? cause.constraint.index : "";
  const field = uniqueFieldOf(index, typeof cause?.table === "string" ? cause.table : "");
  const model = typeof meta?.modelName === "string" ? meta.modelName.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : "";
  if (!field || !model) return new AppError("conflict", "An object with that unique value already exists.");
  const words = field.replace(/_/g, " ");
  const path = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const article = /^[aeiou]/.test(model) ? "An" : "A";
  return new AppError("conflict", `${article} ${model} with that ${words} already exists: choose another ${words}.`, {
    errors: [{ path, message: `This ${words} is already taken.` }],
  });
}

function fromPrismaError(e: unknown): AppError | null {
  const code = (e as { code?: unknown })?.code;
  if (code === "P2002") return takenValue(e);
  if (code === "P2025") return new AppError("not_found", "The resource does not exist.");
  if (code === "P2003") return new AppError("validation_failed", "A referenced object does not exist.", { errors: [] });
  // A deadlock or serialization failure: the concurrent change won; this one can simply be sent again.
  if (code === "P2034") return new AppError("conflict", "The change collided with a concurrent one and was not made; send it again.");
  // The transaction ran past its time limit (a slow database): nothing was changed.
  if (code === "P2028") return new AppError("unavailable", "The change took too long and was not made; retry shortly.");
  // Text PostgreSQL cannot store (a NUL character; an unpaired surrogate inside JSON). The edge
  // refuses it before any work (lib/api/validate-text.ts); this catches what reaches the
  // database by another way in (an admin form's server action) as the same 422, not a 500.
  if (UNSTORABLE_TEXT_CODES.has(postgresCodeOf(e) ?? "")) {
    return new AppError("validation_failed", "A text field contains a character that cannot be stored (a NUL character or an unpaired UTF-16 surrogate).", { errors: [] });
  }
  if (isDatabaseUnavailable(e)) {
    noteDatabaseUnavailable(e);
    return new AppError("unavailable", "The database is unavailable; retry shortly.");
  }
  return null;
}

export function toAppError(e: unknown): AppError | null {
  if (isAppError(e)) return e;
  if (e instanceof z.ZodError) return new AppError("validation_failed", "The request is not valid.", { errors: zodIssuesToFieldErrors(e) });
  return fromPrismaError(e);
}

export function problemResponse(e: unknown, requestId?: string): Response {
  const appError = toAppError(e);
  if (!appError) {
    logger.error({ err: e, requestId }, "unhandled error in API handler");
  }
  const error = appError ?? new AppError("unavailable", "Something went wrong on our side; retry shortly.");
  const status = appError ? STATUS[error.code] : 500;
  const body = {
    type: `https://switchboard.dev/problems/${error.code.replace(/_/g, "-")}`,
    title: appError ? TITLE[error.code] : "Internal server error",
    status,
    detail: error.message,
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
  const headers = new Headers({ "content-type": "application/problem+json" });
  if (requestId) headers.set("x-request-id", requestId);
  if (error.code === "rate_limited" && error.extra.retryAfterMs !== undefined) {
    headers.set("retry-after", String(Math.max(1, Math.ceil(error.extra.retryAfterMs / 1000))));
  }
  if (error.code === "unauthorized") headers.set("www-authenticate", 'Bearer realm="switchboard"');
  // A body refused unread would sit in the connection ahead of the client's next request.
  if (error.code === "payload_too_large" && !error.extra.drained) headers.set("connection", "close");
  return new Response(JSON.stringify(body), { status, headers });
}
