import { AppError, ValidationError } from "@/lib/errors";
import { assertStorableBody } from "@/lib/api/validate-text";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "@/lib/schemas/common";
import { setting } from "@/lib/config/settings";

/** Largest JSON body the admin API accepts (API_MAX_BODY_BYTES, default 1 MiB). */
export function maxJsonBodyBytes(): number {
  return setting("API_MAX_BODY_BYTES");
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
  if (declared > limit) throw tooLarge(limit, false);
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
  const read = await readLimited(request, limit);
  if (read.tooLarge) throw tooLarge(limit, read.drained);
  return read.text;
}

/** The body as UTF-8 text, or null (reading stopped, the rest drained) once it passes `limit` bytes. */
export async function readBodyText(request: Request, limit: number): Promise<string | null> {
  const read = await readLimited(request, limit);
  return read.tooLarge ? null : read.text;
}

type LimitedRead = { tooLarge: false; text: string } | { tooLarge: true; drained: boolean };

async function readLimited(request: Request, limit: number): Promise<LimitedRead> {
  if (!request.body) return { tooLarge: false, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) return { tooLarge: true, drained: await drain(reader) };
    chunks.push(value);
  }
  // TextDecoder drops a leading byte order mark, which editors on Windows write (RFC 8259 §8.1 lets a parser ignore it).
  return { tooLarge: false, text: new TextDecoder().decode(Buffer.concat(chunks)) };
}

/**
 * After a refusal, this much more of the body is read and dropped so that the connection can
 * carry the client's next request; past it (or when the client stalls) the answer closes the
 * connection instead. Left unread, the body would block that connection until its idle timeout.
 */
const DRAIN_MAX_BYTES = 1024 * 1024;
const DRAIN_MAX_MS = 2_000;

/** True when the rest of the body was read to its end. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), DRAIN_MAX_MS)));
  try {
    for (let dropped = 0; dropped <= DRAIN_MAX_BYTES; ) {
      const part = await Promise.race([reader.read(), timedOut]);
      if (part === "timeout") break;
      if (part.done) return true;
      dropped += part.value.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => undefined);
  return false;
}

function tooLarge(limit: number, drained: boolean): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`, { drained });
}
