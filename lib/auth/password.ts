import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt from node:crypto. The stored string carries every parameter
 * (`scrypt$N$r$p$salt$hash`, base64url), so the cost can be raised later without breaking
 * existing hashes.
 */

const SCHEME = "scrypt";
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** About 32 MiB and ~50 ms per hash on a small machine: OWASP's recommended scrypt floor. */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

/** Upper bounds on parameters read back from storage, so a tampered row cannot exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function deriveKey(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly at our cost.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await deriveKey(password, salt, params, KEY_LENGTH);
  return [SCHEME, params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseStoredHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== SCHEME) return null;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d+$/.test(part) ? Number(part) : NaN));
  const isPowerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || N > MAX_N || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return null;
  const salt = Buffer.from(parts[4], "base64url");
  const key = Buffer.from(parts[5], "base64url");
  if (salt.length === 0 || key.length < 16) return null;
  return { params: { N, r, p }, salt, key };
}

/** True when `password` matches `stored`. A malformed stored string never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const candidate = await deriveKey(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(candidate, parsed.key);
}

/** True when a stored hash was made with weaker parameters than today's defaults. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStoredHash(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < DEFAULT_SCRYPT_PARAMS.N || r < DEFAULT_SCRYPT_PARAMS.r || p < DEFAULT_SCRYPT_PARAMS.p;
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same time as a real verification, for sign-ins with an unknown email, so
 * response time does not reveal which accounts exist.
 */
export async function burnPasswordVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(12).toString("base64url"));
  await verifyPassword(password, await dummyHash);
}
