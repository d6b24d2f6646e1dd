import { z } from "zod";

/**
 * An identity provider's OpenID configuration (OIDC Discovery 1.0). Its `issuer` must be the
 * one configured, exactly: the ID tokens it signs are checked against that value.
 */

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});
export type IssuerMetadata = z.infer<typeof Discovery>;

const DISCOVERY_TIMEOUT_MS = 10_000;

export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  const url = `${issuer}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: "error", headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`The identity provider answered ${response.status} at ${url}.`);
  const parsed = Discovery.safeParse(await response.json());
  if (!parsed.success) throw new Error(`The identity provider's configuration at ${url} is not an OpenID configuration.`);
  if (parsed.data.issuer.replace(/\/+$/, "") !== issuer) {
    throw new Error(`The identity provider names itself ${parsed.data.issuer}, not ${issuer}.`);
  }
  return parsed.data;
}

/** client_secret_basic is the spec's default; a provider that lists only _post gets that. */
export function tokenEndpointAuthentication(metadata: IssuerMetadata): "basic" | "post" {
  const methods = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return methods.includes("client_secret_basic") ? "basic" : "post";
}
