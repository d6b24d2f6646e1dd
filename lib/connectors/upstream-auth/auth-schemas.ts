import { z } from "zod";

/**
 * How a connector authenticates to its upstream (issue 24 point 1): `headers` (the static
 * secret headers, the default), `oauth` (authorization code + PKCE, per person or shared) or
 * `client_credentials` (machine to machine). The client secret is write-only: it is sealed
 * into its own column and never part of the stored settings or any answer.
 *
 * Schemas only (zod, no Node module): the console's forms import them through
 * lib/connectors/schemas.ts into the browser bundle; sealing is in auth-settings.ts.
 */

const Url = z.url({ protocol: /^https?$/, error: "Must be an absolute http(s) URL." }).max(2048);
const Scope = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/, "A scope is printable ASCII without spaces, quotes or backslashes.");
const Scopes = z.array(Scope).max(50);
const ClientId = z.string().min(1).max(2048).regex(/^[^\r\n\0]*$/);
const ClientSecret = z.string().min(1).max(4096).regex(/^[^\r\n\0]*$/).meta({ description: "Write-only: stored encrypted and never returned." });

export const HeadersAuth = z.object({ type: z.literal("headers") });
export const OAuthAuth = z.object({
  type: z.literal("oauth"),
  connection: z.enum(["per_user", "shared"]).meta({ description: "`per_user`: each person connects their own account; `shared`: an owner or admin connects one account for the connector." }),
  clientId: ClientId.optional().meta({ description: "A client registered with the upstream's authorization server; absent: our Client ID Metadata Document where supported, else dynamic registration." }),
  clientSecret: ClientSecret.optional(),
  scopes: Scopes.optional().meta({ description: "Replace the discovered scopes (least privilege)." }),
  authorizationServer: Url.optional().meta({ description: "http connectors: an issuer that publishes RFC 8414 / OpenID metadata." }),
  authorizationEndpoint: Url.optional().meta({ description: "http connectors without metadata: with tokenEndpoint." }),
  tokenEndpoint: Url.optional(),
});
export const ClientCredentialsAuth = z.object({
  type: z.literal("client_credentials"),
  tokenUrl: Url,
  clientId: ClientId,
  clientSecret: ClientSecret.optional().meta({ description: "Required when the auth is set; a PATCH may leave it out to keep the stored one." }),
  scopes: Scopes.optional(),
  audience: z.string().min(1).max(2048).optional(),
});

export const ConnectorAuthInput = z.discriminatedUnion("type", [HeadersAuth, OAuthAuth, ClientCredentialsAuth]).meta({
  id: "ConnectorAuthInput",
  description: "How requests to the upstream authenticate. Secret headers still go out beside a token, except `Authorization`, which the token owns.",
});
export type ConnectorAuthInput = z.infer<typeof ConnectorAuthInput>;

/** The stored (and answered) settings: the input without its secret. */
export type ConnectorAuth =
  | { type: "headers" }
  | (Omit<z.infer<typeof OAuthAuth>, "clientSecret"> & { hasClientSecret?: boolean })
  | (Omit<z.infer<typeof ClientCredentialsAuth>, "clientSecret"> & { hasClientSecret?: boolean });

export const ConnectorAuthView = z
  .object({
    type: z.enum(["headers", "oauth", "client_credentials"]),
    connection: z.enum(["per_user", "shared"]).optional(),
    clientId: z.string().optional(),
    hasClientSecret: z.boolean().optional().meta({ description: "Whether a client secret is set (never its value)." }),
    scopes: z.array(z.string()).optional(),
    authorizationServer: z.string().optional(),
    authorizationEndpoint: z.string().optional(),
    tokenEndpoint: z.string().optional(),
    tokenUrl: z.string().optional(),
    audience: z.string().optional(),
  })
  .meta({ id: "ConnectorAuth" });

/**
 * The client identity and scopes a connection was made with: a change asks every person to
 * connect again. Here (no Node module) so the console's edit form can ask before such a change.
 */
export function clientFingerprint(auth: ConnectorAuth): string {
  if (auth.type === "headers") return "";
  const a = auth as Record<string, unknown>;
  return JSON.stringify([a.type, a.clientId ?? null, [...((a.scopes as string[]) ?? [])].sort(), a.authorizationServer ?? null, a.tokenEndpoint ?? a.tokenUrl ?? null]);
}

/** Field errors of an auth that does not fit its connector (the schema cannot see the type); the console checks them too. */
export function authFieldErrors(input: ConnectorAuthInput, connectorType: "http" | "mcp", hasStoredSecret: boolean): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  if (input.type === "client_credentials" && !input.clientSecret && !hasStoredSecret) errors.push({ path: "auth.clientSecret", message: "Enter the client secret: client credentials need one." });
  if (input.type === "oauth" && connectorType === "http") {
    const named = input.authorizationServer !== undefined || (input.authorizationEndpoint !== undefined && input.tokenEndpoint !== undefined);
    if (!named) errors.push({ path: "auth.authorizationServer", message: "Name the authorization server: its issuer URL (with metadata), or both its authorization and token endpoints." });
  }
  if (input.type === "oauth" && input.clientSecret && !input.clientId) errors.push({ path: "auth.clientId", message: "A client secret needs its client ID." });
  return errors;
}

export const HEADERS_AUTH: ConnectorAuth = { type: "headers" };
