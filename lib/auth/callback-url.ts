/**
 * Where to send the browser after sign-in. Only paths on this site are accepted: an absolute
 * or protocol-relative URL (`//evil.example`, `/\evil.example`) would be an open redirect.
 */
export function safeCallbackPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  return value;
}
