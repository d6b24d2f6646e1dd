import { verifyJwsAccessToken } from "@better-auth/core/oauth2";
import { authorizationServer } from "@/lib/oauth/authorization-server";
import { endpointForResourcePath, MCP_SCOPE, resourceUrl, type ResourceEndpoint } from "@/lib/oauth/protected-resource";

/**
 * SPIKE: resource indicators (RFC 8707) for the MCP endpoints. Every `/mcp/<serverId>` is its
 * own resource, so tokens are bound to one server; better-auth only issues tokens for resources
 * it has a row for, so a requested server resource gets its row on first request. Any
 * well-formed id does, existing or not (as its metadata document does): whether the user may
 * reach the server is for the consent step and the MCP endpoint to decide, never for this.
 */

/** The endpoint a resource URL of this issuer names, or null. */
function endpointOfResource(resource: string, origin: string): ResourceEndpoint | null {
  if (!resource.startsWith(`${origin}/`)) return null;
  return endpointForResourcePath(resource.slice(origin.length));
}

/** Creates the resource rows an authorize or token request asks for (the shared /mcp is seeded). */
export async function registerRequestedResources(request: Request, issuer: string): Promise<void> {
  const requested = new URL(request.url).searchParams.getAll("resource");
  if (request.method === "POST" && request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) {
    requested.push(...new URLSearchParams(await request.clone().text()).getAll("resource"));
  }
  const context = await authorizationServer(issuer).$context;
  for (const resource of new Set(requested)) {
    const endpoint = endpointOfResource(resource, issuer);
    if (endpoint?.kind !== "server") continue;
    const identifier = resourceUrl(issuer, endpoint);
    const existing = await context.adapter.findOne({ model: "oauthResource", where: [{ field: "identifier", value: identifier }] });
    if (existing) continue;
    await context.adapter
      .create({ model: "oauthResource", data: { identifier, name: `MCP server ${endpoint.serverId}`, allowedScopes: [MCP_SCOPE, "offline_access"] } })
      .catch(() => undefined); // a concurrent request created it first
  }
}

/**
 * The claims of an access token for exactly this endpoint of `issuer` (the address the request
 * came to), or null: a token issued for another endpoint (another server, or /mcp for a server),
 * by another issuer, expired, or forged.
 */
export async function verifyMcpAccessToken(token: string, endpoint: ResourceEndpoint, issuer: string | null): Promise<{ sub: string; clientId: string; issuedAt?: number } | null> {
  if (!issuer) return null;
  const server = authorizationServer(issuer);
  try {
    const claims = await verifyJwsAccessToken(token, {
      jwksFetch: async () => server.api.getJwks(),
      jwksCacheKey: server,
      verifyOptions: { audience: resourceUrl(issuer, endpoint), issuer },
    });
    const clientId = (claims.azp ?? claims.client_id) as string | undefined;
    if (typeof claims.sub !== "string" || !clientId) return null;
    return { sub: claims.sub, clientId, ...(typeof claims.iat === "number" ? { issuedAt: claims.iat } : {}) };
  } catch {
    return null;
  }
}
