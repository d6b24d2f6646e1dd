import pino from "pino";
import { setting } from "@/lib/config/settings";
import { currentTraceId } from "@/lib/observability/tracing";

/** A new object each time: pino merges the line's own fields into what the mixin returns. */
function traceFields(): object {
  const traceId = currentTraceId();
  return traceId ? { traceId } : {};
}

/**
 * A thrown error as a log may show it. Prisma's messages render the query they came from,
 * argument values included (a validation error prints the `data` of a create: a password hash,
 * a key hash, sealed headers), so for Prisma errors only the name, the code and the last line
 * — the reason — are kept. Other errors keep their message.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!error.name.startsWith("PrismaClient")) return error.message;
  const code = (error as { code?: unknown }).code;
  const reason = error.message.split("\n").map((line) => line.trim()).filter(Boolean).at(-1) ?? "";
  return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${reason}`;
}

/** `err` fields: the standard serializer, with Prisma errors cut down by errorText (no query, no stack). */
function serializeErr(value: unknown): unknown {
  if (value instanceof Error && value.name.startsWith("PrismaClient")) {
    return { type: value.name, message: errorText(value), code: (value as { code?: unknown }).code };
  }
  return pino.stdSerializers.err(value as Error);
}

export const loggerOptions: pino.LoggerOptions = {
  level: setting("LOG_LEVEL"),
  base: { service: "switchboard" },
  // The request's trace (lib/observability) on each of its lines; nothing with tracing off.
  mixin: traceFields,
  serializers: { err: serializeErr },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "*.headers.authorization",
      "password",
      "*.password",
      "secret",
      "*.secret",
      "key",
      "*.key",
    ],
    censor: "[redacted]",
  },
};

/** Structured JSON logs; credentials and secrets are redacted wherever they appear. */
export const logger = pino(loggerOptions);
