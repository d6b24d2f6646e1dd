import { createHash, randomBytes } from "node:crypto";

/**
 * The link an invitation is accepted by: `/invite/<secret>`, 32 random bytes. Only the secret's
 * SHA-256 is stored, so the link is shown (or emailed) once, when the invitation is made; a
 * database reader cannot rebuild it. The secret is the whole credential of a person who has no
 * account yet, which is why it is long and random rather than the invitation's id.
 */

export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A link's secret is 43 base64url characters; anything else names no invitation. */
export function isInvitationTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/invite/${token}`;
}
