import { decryptJson, encryptJson } from "@/lib/crypto/secret-box";
import { logger } from "@/lib/log";

/**
 * A connector's secret request headers: sealed with lib/crypto/secret-box.ts before they
 * reach the database, opened only where a request to the upstream is made.
 */

/** The stored form of `headers`, or null when there are none. */
export function sealHeaders(headers: Record<string, string>): string | null {
  return Object.keys(headers).length > 0 ? encryptJson(headers) : null;
}

/** The plaintext headers of a stored value (throws when it cannot be decrypted). */
export function openHeaders(stored: string | null): Record<string, string> {
  return stored ? decryptJson<Record<string, string>>(stored) : {};
}

/** `current` with `changes` applied: removals first, then the values set (names case-insensitive). */
export function applyHeaderChanges(current: Record<string, string>, changes: { set?: Record<string, string>; remove?: string[] }): Record<string, string> {
  const dropped = new Set([...(changes.remove ?? []), ...Object.keys(changes.set ?? {})].map((n) => n.toLowerCase()));
  const kept = Object.entries(current).filter(([name]) => !dropped.has(name.toLowerCase()));
  return Object.fromEntries([...kept, ...Object.entries(changes.set ?? {})]);
}

/** The header names that are set, sorted; never their values. */
export function secretHeaderNames(stored: string | null, connectorId: string): string[] {
  if (!stored) return [];
  try {
    return Object.keys(openHeaders(stored)).sort();
  } catch {
    // Wrong SECRET_KEY or a damaged row: say nothing about the values, keep serving the rest.
    logger.warn({ connectorId }, "connector secret headers cannot be decrypted");
    return [];
  }
}

/**
 * Replaces every secret value inside `text` (e.g. an upstream error message) with a marker:
 * whole header values, and the credential of a `<scheme> <credential>` value on its own
 * (an API that refuses `Bearer abc…` often quotes just `abc…`). Longest first, so a value
 * that contains another is not left half-redacted.
 */
export function redactSecrets(text: string, headers: Record<string, string>): string {
  const secrets = new Set<string>();
  for (const value of Object.values(headers)) {
    secrets.add(value);
    const credential = /^[A-Za-z][\w.+-]*\s+(\S+)\s*$/.exec(value)?.[1];
    if (credential) secrets.add(credential);
  }
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}
