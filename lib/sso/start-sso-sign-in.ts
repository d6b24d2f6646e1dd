import { randomBytes } from "node:crypto";
import { createAuthorizationURL } from "better-auth/oauth2";
import { db } from "@/lib/db/client";
import { normalizeEmail } from "@/lib/auth/password-sign-in";
import { textFlaw } from "@/lib/api/validate-text";
import { authorizationServer } from "@/lib/oauth/authorization-server";
import { discoverIssuer } from "@/lib/sso/discover-issuer";
import { ssoRedirectUri } from "@/lib/sso/sso-connections";

/**
 * The first leg of single sign-on: the email's domain names the organization and its identity
 * provider; the browser is sent there with state, nonce and PKCE, which wait in better-auth's
 * verification table for the callback (lib/sso/finish-sso-sign-in.ts).
 */

/** A sign-in left at the identity provider for longer than this starts over. */
const STATE_TTL_MS = 10 * 60 * 1000;

export const SSO_STATE_COOKIE = "switchboard.sso_state";

export interface PendingSsoSignIn {
  connectionId: string;
  codeVerifier: string;
  nonce: string;
  callbackPath: string;
  /**
   * The callback the provider was told: the code must be redeemed with the same one. Absent in
   * sign-ins started before it was kept (the configured address then, as before).
   */
  redirectUri?: string;
}

export type StartSsoResult = { ok: true; url: string; state: string } | { ok: false; code: "SsoNotConfigured" };

export function emailDomain(email: string): string {
  const normalized = normalizeEmail(email);
  return normalized.slice(normalized.lastIndexOf("@") + 1);
}

export function stateIdentifier(state: string): string {
  return `sso-state:${state}`;
}

async function connectionForDomain(domain: string) {
  // Sign-in by email domain: the domain names the one organization that has VERIFIED it (a unique
  // index holds that); pending claims of any organization sign nobody in.
  const row = await db().ssoDomain.findFirst({
    where: { domain, verifiedAt: { not: null } },
    select: { connection: { select: { id: true, issuer: true, clientId: true, enabled: true } } },
  });
  return row?.connection.enabled ? row.connection : null;
}

/**
 * `origin`: the address the person's browser used (lib/servers/server-url.ts publicOrigin), so
 * the provider sends them back where their state cookie lives — `localhost` and `127.0.0.1` are
 * two cookie jars. PUBLIC_URL, when set, is that origin for everyone.
 */
export async function startSsoSignIn(input: { email: string; callbackPath: string; origin?: string | null }): Promise<StartSsoResult> {
  const email = normalizeEmail(input.email);
  // Text no stored domain can hold (a NUL, a lone surrogate) is not looked up at all.
  const usable = email.includes("@") && email.length <= 320 && !textFlaw(email);
  const connection = usable ? await connectionForDomain(emailDomain(email)) : null;
  if (!connection) return { ok: false, code: "SsoNotConfigured" };
  const metadata = await discoverIssuer(connection.issuer);
  const [state, codeVerifier, nonce] = [32, 48, 24].map((bytes) => randomBytes(bytes).toString("base64url"));
  const redirectUri = ssoRedirectUri(input.origin ?? undefined);
  const pending: PendingSsoSignIn = { connectionId: connection.id, codeVerifier, nonce, callbackPath: input.callbackPath, redirectUri };
  const { internalAdapter } = await authorizationServer().$context;
  await internalAdapter.createVerificationValue({ identifier: stateIdentifier(state), value: JSON.stringify(pending), expiresAt: new Date(Date.now() + STATE_TTL_MS) });
  const url = await createAuthorizationURL({
    id: "sso",
    options: { clientId: connection.clientId, redirectURI: redirectUri },
    authorizationEndpoint: metadata.authorization_endpoint,
    redirectURI: redirectUri,
    state,
    codeVerifier,
    nonce,
    scopes: ["openid", "email", "profile"],
    loginHint: email,
  });
  return { ok: true, url: url.toString(), state };
}
