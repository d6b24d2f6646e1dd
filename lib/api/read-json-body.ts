import { AppError, ValidationError } from "@/lib/errors";
import { assertStorableBody } from "@/lib/api/validate-text";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "@/lib/schemas/common";

/** Largest JSON body the admin API accepts (API_MAX_BODY_BYTES, default 1 MiB). */
export function maxJsonBodyBytes(): number {
  return Number(process.env.API_MAX_BODY_BYTES) || 1024 * 1024;
}

/**
 * Reads and parses a JSON request body: 415 for another content type, 413 past the size
 * limit (checked while streaming, not trusted from Content-Length alone), 400 for bad JSON,
 * 422 for JSON nested more than MAX_JSON_DEPTH levels (it would overflow the stack further on)
 * and for a string or key the database cannot store (NUL, unpaired surrogate).
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const limit = maxJsonBodyBytes();
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) throw tooLarge(limit);
  const text = await readTextWithLimit(request, limit);
  if (text.trim() === "") throw new AppError("bad_request", "The request body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(e as Error).message}`);
  }
  if (jsonDeeperThan(value)) throw new ValidationError([{ path: "(body)", message: `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep.` }]);
  assertStorableBody(value);
  return value;
}

async function readTextWithLimit(request: Request, limit: number): Promise<string> {
  const text = await readBodyText(request, limit);
  if (text === null) throw tooLarge(limit);
  return text;
}

/** The body as UTF-8 text, or null (reading stopped) once it passes `limit` bytes. */
export async function readBodyText(request: Request, limit: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`);
}
