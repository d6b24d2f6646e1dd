import { setting } from "@/lib/config/settings";
import { STATIC_SECURITY_HEADERS } from "@/lib/net/static-security-headers";

/**
 * The security headers of every page. Scripts run only with this response's nonce, or when a
 * nonced script loaded them ('strict-dynamic': Next's chunks are loaded that way); no other site
 * may frame a page. Styles allow inline: React's `style` attributes and the editors' injected
 * <style> elements carry no nonce, and a style cannot run code. HSTS and upgrade-insecure-requests
 * only when PUBLIC_URL says the platform is served over https: on plain http they would break it.
 */
export function pageSecurityHeaders(nonce: string): Record<string, string> {
  const https = setting("PUBLIC_URL")?.startsWith("https://") ?? false;
  // React's development build evaluates code strings (error overlays, stack reconstruction).
  const devEval = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devEval}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "content-security-policy": policy,
    ...STATIC_SECURITY_HEADERS,
    ...(https ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/** The request header proxy.ts hands a page's nonce to its server components in. */
export const NONCE_HEADER = "x-nonce";

/** 128 random bits, base64: a fresh one per page response. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
