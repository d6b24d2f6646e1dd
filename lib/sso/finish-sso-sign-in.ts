import { validateAuthorizationCode, validateToken } from "better-auth/oauth2";
import { db } from "@/lib/db/client";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { errorText, logger } from "@/lib/log";
import { normalizeEmail } from "@/lib/auth/password-sign-in";
import { authorizationServer } from "@/lib/oauth/authorization-server";
import { idTokenFlaw, sameText } from "@/lib/sso/check-id-token";
import { discoverIssuer, tokenEndpointAuthentication } from "@/lib/sso/discover-issuer";
import { withUserinfoEmail } from "@/lib/sso/fetch-userinfo";
import { ssoRedirectUri } from "@/lib/sso/sso-connections";
import { userForSsoIdentity, type SsoIdentity } from "@/lib/sso/sso-identity";
import { emailDomain, stateIdentifier, type PendingSsoSignIn } from "@/lib/sso/start-sso-sign-in";

/**
 * The identity provider's answer at /api/auth/sso/callback: the state must be the one this
 * browser was given (its cookie) and still pending; the code is exchanged with PKCE; the ID
 * token must be signed by the issuer for our client with our nonce, and name (or its userinfo
 * must) an email in one of the organization's VERIFIED domains that the provider calls verified
 * (or, where the organization chose so, about which it says nothing).
 */

export type SsoErrorCode = "SsoNotMember" | "SsoLinkRefused" | "SsoDomainNotAllowed" | "SsoEmailUnverified" | "SsoFailed";
export type FinishSsoResult = { ok: true; userId: string; callbackPath: string } | { ok: false; code: SsoErrorCode };

async function takePending(state: string): Promise<PendingSsoSignIn | null> {
  const { internalAdapter } = await authorizationServer().$context;
  const row = await internalAdapter.consumeVerificationValue(stateIdentifier(state));
  return row ? (JSON.parse(row.value) as PendingSsoSignIn) : null;
}

async function loadConnection(connectionId: string) {
  // The pending sign-in names the connection; its org is read from the row itself.
  return db().ssoConnection.findUnique({
    where: { id: connectionId },
    select: { id: true, orgId: true, issuer: true, clientId: true, clientSecretEncrypted: true, joinNewUsers: true, acceptEmailWithoutVerifiedClaim: true, enabled: true, domains: { where: { verifiedAt: { not: null } }, select: { domain: true } } },
  });
}

type Connection = NonNullable<Awaited<ReturnType<typeof loadConnection>>>;

async function verifiedIdentity(connection: Connection, pending: PendingSsoSignIn, code: string): Promise<Record<string, unknown>> {
  const metadata = await discoverIssuer(connection.issuer);
  const tokens = await validateAuthorizationCode({
    code,
    codeVerifier: pending.codeVerifier,
    redirectURI: pending.redirectUri ?? ssoRedirectUri(),
    options: { clientId: connection.clientId, clientSecret: decryptSecret(connection.clientSecretEncrypted) },
    tokenEndpoint: metadata.token_endpoint,
    authentication: tokenEndpointAuthentication(metadata),
  });
  if (!tokens.idToken) throw new Error("the identity provider returned no ID token");
  const { payload } = await validateToken(tokens.idToken, metadata.jwks_uri, { audience: connection.clientId, issuer: metadata.issuer });
  const flaw = idTokenFlaw(payload, connection.clientId, pending.nonce);
  if (flaw) throw new Error(flaw);
  return withUserinfoEmail(payload, metadata, tokens.accessToken);
}

function identityOf(claims: Record<string, unknown>): SsoIdentity | null {
  if (typeof claims.sub !== "string" || typeof claims.email !== "string" || !claims.email.includes("@")) return null;
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : null;
  return { subject: claims.sub, email: normalizeEmail(claims.email), name };
}

/**
 * `email_verified` must be true. A provider that sends no claim at all (Entra ID does not) is
 * taken at its word only where the organization chose so: another provider that lets people type
 * any email and leaves the claim out would otherwise sign them in under the org's domain.
 */
function emailVerifiedEnough(claim: unknown, acceptMissing: boolean): boolean {
  if (claim === true || claim === "true") return true;
  return claim === undefined && acceptMissing;
}

export async function finishSsoSignIn(input: { state: string | null; code: string | null; stateCookie: string | undefined }): Promise<FinishSsoResult> {
  const { state, code, stateCookie } = input;
  if (!state || !code || !stateCookie || !sameText(state, stateCookie)) return { ok: false, code: "SsoFailed" };
  const pending = await takePending(state);
  const connection = pending ? await loadConnection(pending.connectionId) : null;
  if (!pending || !connection?.enabled) return { ok: false, code: "SsoFailed" };
  let claims: Record<string, unknown>;
  try {
    claims = await verifiedIdentity(connection, pending, code);
  } catch (error) {
    logger.warn({ err: errorText(error), orgId: connection.orgId }, "single sign-on: the identity provider's answer was refused");
    return { ok: false, code: "SsoFailed" };
  }
  const identity = identityOf(claims);
  if (!identity) return { ok: false, code: "SsoFailed" };
  if (!emailVerifiedEnough(claims.email_verified, connection.acceptEmailWithoutVerifiedClaim)) return { ok: false, code: "SsoEmailUnverified" };
  if (!connection.domains.some((d) => d.domain === emailDomain(identity.email))) return { ok: false, code: "SsoDomainNotAllowed" };
  const user = await userForSsoIdentity(connection, identity);
  return user.ok ? { ok: true, userId: user.userId, callbackPath: pending.callbackPath } : user;
}
