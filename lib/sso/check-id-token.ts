import { timingSafeEqual } from "node:crypto";

/**
 * What OIDC Core §3.1.3.7 asks of an ID token beyond its signature, issuer and audience (which
 * the JWT verification checks): "If the ID Token contains multiple audiences, the Client SHOULD
 * verify that an azp Claim is present", "If an azp (authorized party) Claim is present, the
 * Client SHOULD verify that its client_id is the Claim Value", the token must expire (`exp` is
 * REQUIRED; the verification checks it only when present), and its nonce must be this sign-in's.
 */

export function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Why the verified ID token `payload` is not for this client and sign-in, or null when it is. */
export function idTokenFlaw(payload: Record<string, unknown>, clientId: string, nonce: string): string | null {
  if (typeof payload.nonce !== "string" || !sameText(payload.nonce, nonce)) return "the ID token's nonce is not this sign-in's";
  if (typeof payload.exp !== "number") return "the ID token has no expiry";
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined) return "the ID token names several audiences and no authorized party";
  if (payload.azp !== undefined && payload.azp !== clientId) return "the ID token was issued to another client (azp)";
  return null;
}
