import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * What a tool.call audit event stores of arguments or a result, when the org's setting keeps
 * them at all: values under secret-looking keys redacted, text PostgreSQL cannot store
 * (U+0000, unpaired surrogates) replaced, and at most AUDIT_EXCERPT_BYTES of JSON each — a
 * longer value becomes `{ truncated: true, bytes, preview }`.
 */

export const AUDIT_EXCERPT_BYTES = 16 * 1024;

/** Words that make a key secret-looking, and word pairs that do ("api_key", "privateKey"). */
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "pwd", "token", "secret", "authorization", "auth", "cookie", "credential", "credentials", "apikey", "bearer", "signature"]);
const SECRET_PAIRS = new Set(["api key", "private key", "access key", "secret key", "session id"]);

/** "x-api-key", "accessToken", "client_secret" are secret-looking; "max_tokens" is not. */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w, i) => SECRET_WORDS.has(w) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${w}`)));
}

/** The value with secret-looking keys redacted, whole when its JSON fits, else a cut preview. */
export function auditExcerpt(value: unknown): Prisma.InputJsonValue {
  const clean = redactKeys(value, 0) ?? null;
  const json = JSON.stringify(clean) ?? "null";
  if (Buffer.byteLength(json) <= AUDIT_EXCERPT_BYTES) return clean as Prisma.InputJsonValue;
  const budget = AUDIT_EXCERPT_BYTES - 64; // room for the wrapper object's own keys
  return { truncated: true, bytes: Buffer.byteLength(json), preview: cutToBytes(json, budget) };
}

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text PostgreSQL accepts (U+FFFD in place of the rest): an upstream may send what a client may not. */
export function storable(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD");
}

function redactKeys(value: unknown, depth: number): unknown {
  if (depth > 20) return "[too deep]";
  if (typeof value === "string") return storable(value);
  if (Array.isArray(value)) return value.map((v) => redactKeys(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), isSecretKey(k) ? "[redacted]" : redactKeys(v, depth + 1)]));
  }
  return value;
}

/** The longest prefix of `text` whose UTF-8 form (as JSON inside the preview) fits `bytes`. */
function cutToBytes(text: string, bytes: number): string {
  let end = Math.min(text.length, bytes);
  while (end > 0 && Buffer.byteLength(JSON.stringify(text.slice(0, end))) > bytes) end = Math.floor(end * 0.9);
  // A cut between the two halves of a surrogate pair would leave a lone one.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
  return text.slice(0, end);
}
