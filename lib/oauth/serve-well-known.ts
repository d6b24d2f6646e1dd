import { oauthProviderAuthServerMetadata } from "@better-auth/oauth-provider";
import { authorizationServer, oauthIssuer } from "@/lib/oauth/authorization-server";
import { endpointForResourcePath, PROTECTED_RESOURCE_PREFIX, protectedResourceMetadata } from "@/lib/oauth/protected-resource";
import { publicOrigin } from "@/lib/servers/server-url";

/**
 * The HTTP adapter of everything under `/.well-known/`: metadata documents MCP clients fetch
 * before they hold any credential, some of them from a browser page (the MCP Inspector,
 * claude.ai). So every answer is JSON — a document or a 404 — never the sign-in page an admin
 * page would redirect to, and every answer allows any origin to read it: the documents are
 * public and no cookie is ever read here.
 */

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, OPTIONS",
  // The MCP SDKs send their protocol version on discovery requests.
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
};

/** The documents name the Host they were asked for, so a shared cache must keep them apart. */
const CACHEABLE = "public, max-age=300";

function json(status: number, body: unknown, cache: string): Response {
  return Response.json(body, { status, headers: { ...CORS, "cache-control": cache, vary: "host" } });
}

/**
 * Any other document (OpenID's included) is a JSON 404; a client then stops with "not found"
 * instead of parsing an HTML page.
 */
function notFound(): Response {
  return json(404, { error: "not_found", error_description: "No such metadata document on this server." }, "no-store");
}

/**
 * RFC 8414 metadata from the authorization server, with our CORS headers. There is no OpenID
 * document: no ID tokens are issued (no `openid` scope), and better-auth throws (500) if asked.
 */
async function authorizationServerMetadata(request: Request, issuer: string): Promise<Response> {
  const answer = await oauthProviderAuthServerMetadata(authorizationServer(issuer))(request);
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(CORS)) headers.set(name, value);
  return new Response(answer.body, { status: answer.status, headers });
}

/** GET (and HEAD) of a `/.well-known/…` path. */
export async function serveWellKnown(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === "/.well-known/oauth-authorization-server") {
    const issuer = oauthIssuer(request.headers, request.url);
    return issuer ? authorizationServerMetadata(request, issuer) : notFound();
  }
  const base = publicOrigin(request.headers, request.url);
  if (!base) return notFound(); // a Host that is not this platform: nothing is published there
  if (pathname === PROTECTED_RESOURCE_PREFIX) return json(200, protectedResourceMetadata(base, null), CACHEABLE);
  if (pathname.startsWith(`${PROTECTED_RESOURCE_PREFIX}/`)) {
    const endpoint = endpointForResourcePath(pathname.slice(PROTECTED_RESOURCE_PREFIX.length));
    if (endpoint) return json(200, protectedResourceMetadata(base, endpoint), CACHEABLE);
  }
  return notFound();
}

/** The CORS preflight of a browser client. */
export function wellKnownPreflight(): Response {
  return new Response(null, { status: 204, headers: CORS });
}
