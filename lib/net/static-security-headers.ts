/**
 * Security headers that never change: next.config.ts sends them on every response (API, files
 * and assets too); pages add theirs in proxy.ts. No imports: next.config.ts loads this file.
 */
export const STATIC_SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
} as const;
