import { z } from "zod";
import type { IssuerMetadata } from "@/lib/sso/discover-issuer";

/**
 * The email of an ID token that carries none, from the provider's userinfo endpoint (OIDC Core
 * §5.3): several providers put only `sub` in the ID token and the rest behind the access token.
 * "The sub Claim in the UserInfo Response MUST be verified to exactly match the sub Claim in the
 * ID Token; if they do not match, the UserInfo Response values MUST NOT be used."
 */

const USERINFO_TIMEOUT_MS = 10_000;

const Userinfo = z.looseObject({
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.string()]).optional(),
  name: z.string().optional(),
});

async function fetchUserinfo(endpoint: string, accessToken: string): Promise<z.infer<typeof Userinfo>> {
  const response = await fetch(endpoint, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    signal: AbortSignal.timeout(USERINFO_TIMEOUT_MS),
    redirect: "error",
  });
  if (!response.ok) throw new Error(`the identity provider's userinfo endpoint answered ${response.status}`);
  // A signed (JWT) userinfo answer is not asked for at registration, so JSON is what comes back.
  const parsed = Userinfo.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error("the identity provider's userinfo answer is not userinfo");
  return parsed.data;
}

/** The ID token's claims, with email, email_verified and name from userinfo when it names no email. */
export async function withUserinfoEmail(claims: Record<string, unknown>, metadata: IssuerMetadata, accessToken: string | undefined): Promise<Record<string, unknown>> {
  if (typeof claims.email === "string" || !metadata.userinfo_endpoint || !accessToken) return claims;
  const info = await fetchUserinfo(metadata.userinfo_endpoint, accessToken);
  if (info.sub !== claims.sub) throw new Error("the userinfo answer is about another subject than the ID token");
  const merged: Record<string, unknown> = { ...claims, email: info.email, email_verified: info.email_verified };
  if (typeof claims.name !== "string" && info.name) merged.name = info.name;
  return merged;
}
