import { OAuthError } from "@modelcontextprotocol/client";

/**
 * A failure of the upstream's OAuth exchange in a sentence for a person: the OAuth error code
 * and the server's description, or the network cause. The SDK's own messages can quote the
 * raw body of an answer, so a body is never repeated, and nothing here carries a token.
 */
export function describeOAuthFailure(e: unknown): string {
  if (e instanceof OAuthError) return `${e.code}${e.message && !e.message.includes("Raw body") ? `: ${clip(e.message)}` : ""}`;
  const parts: string[] = [];
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const message = err instanceof Error ? err.message : String(err);
    if (message && message !== "fetch failed" && !parts.includes(message)) parts.push(message);
  }
  return clip(parts.join(": ") || "network error");
}

function clip(text: string): string {
  return text.replace(/\s+/g, " ").replace(/Raw body:.*$/, "").slice(0, 300);
}

/** OAuth errors that mean the grant is gone (revoked, expired, reused): the person must connect again. */
export function isGrantRefused(e: unknown): boolean {
  return e instanceof OAuthError && ["invalid_grant", "invalid_client", "unauthorized_client", "access_denied"].includes(e.code);
}
