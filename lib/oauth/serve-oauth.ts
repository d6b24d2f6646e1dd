import { authorizationServer, OAUTH_BASE_PATH, oauthIssuer } from "@/lib/oauth/authorization-server";
import { newClientRefusal, oauthRequestRefusal } from "@/lib/oauth/client-limits";
import { registerRequestedResources } from "@/lib/oauth/mcp-access-token";
import { withNativeDefault } from "@/lib/oauth/native-registration";

/**
 * The HTTP adapter of better-auth's OAuth endpoints (under OAUTH_BASE_PATH), with the few
 * answers where better-auth 1.7.5 departs from the specs put right on the way out.
 */

const TOKEN_PATH = `${OAUTH_BASE_PATH}/oauth2/token`;
const REGISTER_PATH = `${OAUTH_BASE_PATH}/oauth2/register`;
/**
 * better-auth's own consent endpoint issues a code for whatever the signed query asks; the
 * choice of servers stored with the grant is made only by the consent page's decision
 * (lib/oauth/consent.ts, which calls the endpoint in process), so from outside it is not there.
 */
const CONSENT_PATH = `${OAUTH_BASE_PATH}/oauth2/consent`;

/**
 * The endpoints of better-auth's that the product serves: the OAuth 2.1 authorization server's
 * as its RFC 8414 metadata names them (authorize, token, register, revoke, introspect, jwks), and
 * the error page authorize sends a browser to while the redirect URI is not yet trusted. Every
 * other built-in (get-session and list-sessions, which answer raw session tokens; update-user,
 * which renames without an audit event; revoke-other-sessions, the jwt plugin's token, the
 * client and consent administration …) takes the console's session cookie, so from outside it
 * is not there: people manage their account on /me/account.
 */
const SERVED_PATHS = new Set(["/oauth2/authorize", "/oauth2/token", "/oauth2/register", "/oauth2/revoke", "/oauth2/introspect", "/jwks", "/error"].map((path) => `${OAUTH_BASE_PATH}${path}`));

/**
 * RFC 7636 §4.6: "If the values are not equal, an error response indicating invalid_grant as
 * described in Section 5.2 of [RFC6749] MUST be returned." better-auth answers a wrong (or
 * unexpected) code_verifier with 401 invalid_request, which clients take for a bad client
 * credential rather than a code to throw away.
 */
const PKCE_FAILURES = new Set(["code verification failed", "code_verifier provided but PKCE was not used in authorization"]);

async function specTokenError(response: Response): Promise<Response> {
  if (response.status !== 401 || !response.headers.get("content-type")?.includes("json")) return response;
  const text = await response.text();
  let body: { error?: string; error_description?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not an OAuth error body: passed on as it was
  }
  const headers = new Headers(response.headers);
  if (body.error !== "invalid_request" || !PKCE_FAILURES.has(body.error_description ?? "")) return new Response(text, { status: response.status, headers });
  headers.delete("www-authenticate");
  headers.delete("content-length");
  return Response.json({ error: "invalid_grant", error_description: body.error_description }, { status: 400, headers });
}

export async function serveOauth(request: Request): Promise<Response> {
  const issuer = oauthIssuer(request.headers, request.url);
  if (!issuer) return Response.json({ error: "not_found", error_description: "OAuth sign-in is off here." }, { status: 404 });
  const { pathname } = new URL(request.url);
  if (pathname === CONSENT_PATH) return Response.json({ error: "not_found", error_description: "Consent is given on the consent page." }, { status: 404 });
  if (!SERVED_PATHS.has(pathname)) return Response.json({ error: "not_found", error_description: "No such OAuth endpoint." }, { status: 404 });
  const refusal = (await oauthRequestRefusal(request.headers)) ?? (request.method === "POST" && pathname === REGISTER_PATH ? await newClientRefusal(request.headers) : null);
  if (refusal) return refusal;
  await registerRequestedResources(request, issuer);
  const isToken = request.method === "POST" && pathname === TOKEN_PATH;
  const native = await withNativeDefault(request);
  if (native.refusal) return native.refusal;
  const response = await native.finish(await authorizationServer(issuer).handler(native.request));
  return isToken ? specTokenError(response) : response;
}
