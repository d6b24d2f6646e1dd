import { createHash } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import type { VersionsSeen } from "@/lib/config-version/read-current-version";
import { bearerToken, callerFromBearerFor } from "@/lib/auth/resolve-bearer";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";
import { mcpConfig } from "@/lib/mcp/serve/mcp-config";
import { rateLimitedResponse, unauthorizedResponse } from "@/lib/mcp/serve/http-edge/responses";
import { verifyMcpAccessToken } from "@/lib/oauth/mcp-access-token";
import { oauthIssuer } from "@/lib/oauth/authorization-server";
import { CHALLENGE_SCOPE, resourceMetadataUrl, resourceUrl, type ResourceEndpoint } from "@/lib/oauth/protected-resource";
import { callerOfGrant } from "@/lib/oauth/resolve-grant";
import { clientBaseUrl } from "@/lib/servers/server-url";

/** An authenticated MCP caller and the identity its sessions are bound to. */
export interface McpPrincipal {
  caller: Caller;
  /** `key:<apiKeyId>` or `instance`: another credential never reaches this principal's sessions. */
  identity: string;
}

export interface AuthenticateOptions {
  /** The configuration versions the request reads or assumes (lib/config-version/read-current-version.ts). */
  seen?: VersionsSeen;
  /** The request already spent its unit of the rate budget: it is being served a second time. */
  budgetSpent?: boolean;
}

/** Stable, non-secret limiter key for a presented token (the token itself is never stored). */
function tokenKey(token: string): string {
  return createHash("sha256").update(token).digest("base64url").slice(0, 32);
}

/**
 * Authenticates an MCP request from its `Authorization: Bearer` header only (never the query
 * string) and spends one unit of that credential's rate budget first, so a flood costs no
 * database work. Returns the principal, or the 401 / 429 response to send; a 401 names the
 * metadata of `endpoint` (at this instance's public URL) so OAuth clients can discover it.
 */
export async function authenticateMcp(headers: Headers, requestUrl: string, endpoint: ResourceEndpoint, options: AuthenticateOptions = {}): Promise<McpPrincipal | Response> {
  const { seen, budgetSpent = false } = options;
  // Made only for a 401: a request that authenticates needs neither its URLs nor its address
  // unless its key is unknown (two URL parses and the address's normalisation per request).
  // The Host was checked before (serve-mcp.ts), so publicOrigin() has one to use.
  const challenge = () => ({ metadataUrl: resourceMetadataUrl(clientBaseUrl(headers, requestUrl), endpoint), scope: CHALLENGE_SCOPE });
  const token = bearerToken(headers.get("authorization"));
  if (!token) return unauthorizedResponse("missing", challenge());
  const limited = budgetSpent ? null : await spendBudget(token);
  if (limited) return limited;
  if (looksLikeJwt(token)) return oauthPrincipal(token, endpoint, oauthIssuer(headers, requestUrl), challenge, seen);
  const outcome = await callerFromBearerFor(token, () => clientIpFromHeaders(headers), seen);
  if (!outcome.ok) return outcome.retryAfterMs === null ? unauthorizedResponse("invalid", challenge()) : rateLimitedResponse(outcome.retryAfterMs);
  const { caller } = outcome;
  const identity = caller.kind === "instance" ? "instance" : `key:${caller.apiKey?.id ?? `user:${caller.userId}`}`;
  return { caller, identity };
}

/** The 429 to send when `token`'s rate budget is spent, after spending one unit of it; null otherwise. */
async function spendBudget(token: string): Promise<Response | null> {
  const { points, durationSec } = mcpConfig.rateLimit();
  const limited = await consume(getLimiter(`mcp:${points}/${durationSec}`, { points, durationSec }), tokenKey(token));
  return limited.ok ? null : rateLimitedResponse(limited.retryAfterMs);
}

/** API keys are `sb_…` and the instance key is free text; OAuth access tokens are JWTs. */
function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/**
 * An OAuth access token is accepted only at the endpoint it was issued for (its audience), and
 * only while the grant its user chose on the consent page stands: the caller is then the one an
 * API key of that user with the grant's scope would be (lib/oauth/resolve-grant.ts).
 */
async function oauthPrincipal(token: string, endpoint: ResourceEndpoint, issuer: string | null, challenge: () => { metadataUrl: string; scope: string }, seen?: VersionsSeen): Promise<McpPrincipal | Response> {
  const claims = await verifyMcpAccessToken(token, endpoint, issuer);
  const caller = claims && issuer ? await callerOfGrant(claims, resourceUrl(issuer, endpoint), seen) : null;
  if (!caller || caller.kind !== "user" || !caller.apiKey) return unauthorizedResponse("invalid", challenge());
  return { caller, identity: `key:${caller.apiKey.id}` };
}

/** The anonymous demo endpoint spends one unit of the client address's budget instead. */
export async function limitDemoClient(headers: Headers): Promise<Response | null> {
  const { points, durationSec } = mcpConfig.demoRateLimit();
  const limited = await consume(getLimiter(`mcp-demo:${points}/${durationSec}`, { points, durationSec }), clientIpFromHeaders(headers));
  return limited.ok ? null : rateLimitedResponse(limited.retryAfterMs);
}
