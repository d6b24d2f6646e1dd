import { isSameOriginRequest } from "@/lib/auth/same-origin";
import { logger } from "@/lib/log";
import { authorizationServer, OAUTH_BASE_PATH, oauthIssuer } from "@/lib/oauth/authorization-server";
import { isClientIdUrl } from "@/lib/oauth/client-metadata-document";
import { chosenScope, consentOffer, type ConsentOffer, type GrantScope } from "@/lib/oauth/consent-choice";
import { saveGrant } from "@/lib/oauth/save-grant";
import { consentingUserId } from "@/lib/oauth/sign-in-bridge";

/**
 * The consent step. better-auth sends the browser to the consent page with the authorization
 * request, signed; the page shows who asks (client name, where it sends the answer) and what
 * it may reach — chosen by the user (lib/oauth/consent-choice.ts) — and posts the decision back
 * with that signed query. The choice is stored with the grant once better-auth has accepted
 * the decision, and a token then reaches exactly that.
 */

export const CONSENT_PATH = "/oauth/consent";
/**
 * An authorization request without `resource`: the MCP authorization spec requires clients to
 * name the MCP server (RFC 8707 resource indicator) the token is for, and a token here is only
 * ever for one endpoint, so there is nothing to offer until the app names one.
 */
export const RESOURCE_MISSING =
  "The app did not say which MCP server it wants. Apps must name it with the resource parameter, as the MCP authorization specification requires: give the app the server's URL (…/mcp/<server>) and start again from the app.";
export const CONSENT_DECIDE_PATH = "/oauth/consent/decide";

export interface ConsentRequest {
  clientId: string;
  clientName: string;
  /**
   * For a client named by its metadata document's URL, that URL's host: "The authorization
   * server SHOULD display the hostname of the client_id", since the name is the client's own say.
   */
  clientHost: string | null;
  /** Where the answer goes: the redirect URI's host, or a native app's private-use scheme. */
  redirectHost: string;
  scopes: string[];
  resource: string | null;
  /** The request names no resource at all: the app did not say which MCP server it wants. */
  resourceMissing: boolean;
  /** What the user may allow; null: nothing (a server they cannot see, or no MCP endpoint). */
  offer: ConsentOffer | null;
  /** The signed query, posted back unchanged. */
  oauthQuery: string;
}

/**
 * The issuer of a page request (the consent page has headers, not a URL): its Host, with the
 * scheme X-Forwarded-Proto names, under the same rule as every OAuth endpoint. The `http:` stand-in
 * is what those endpoints see too: the start script (scripts/serve.ts) serves plain HTTP only —
 * TLS ends at a proxy, which says so in X-Forwarded-Proto — so no connection here is ever https.
 */
export function pageIssuer(headers: Headers): string | null {
  return oauthIssuer(headers, `http://${headers.get("host") ?? "localhost"}/`);
}

/**
 * The redirect URI as the consent page names it: an https (or loopback) URI by its host, a
 * private-use one by its scheme (and authority, when it has one): `com.example.app:/cb` has no
 * host, and the page would otherwise say it sends the answer nowhere.
 */
function redirectTarget(redirectUri: string | null): string | null {
  let url: URL;
  try {
    url = new URL(redirectUri ?? "");
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.host;
  const scheme = url.protocol.slice(0, -1);
  return url.host ? `${scheme}://${url.host}` : scheme;
}

/** What the consent page shows `userId` for its query string, or null when it names no registered client. */
export async function consentRequest(search: URLSearchParams, userId: string | null, issuer: string | null): Promise<ConsentRequest | null> {
  const clientId = search.get("client_id");
  if (!clientId || !search.get("sig") || !issuer) return null;
  const context = await authorizationServer(issuer).$context;
  const client = await context.adapter.findOne<{ name: string | null }>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });
  if (!client) return null;
  const redirectHost = redirectTarget(search.get("redirect_uri"));
  if (!redirectHost) return null;
  const resources = search.getAll("resource");
  const resource = resources.length === 1 ? resources[0] : null;
  return {
    clientId,
    clientName: client.name || clientId,
    clientHost: isClientIdUrl(clientId) ? new URL(clientId).host : null,
    redirectHost,
    scopes: (search.get("scope") ?? "").split(" ").filter(Boolean),
    resource,
    resourceMissing: resources.length === 0,
    offer: userId ? await consentOffer(userId, resource, issuer) : null,
    oauthQuery: search.toString(),
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&"<>']/g, (c) => HTML_ESCAPES[c]);

/**
 * The way back to the client's redirect URI. Not a 303: the pages' CSP says `form-action 'self'`,
 * and Chromium applies it to the redirects that follow a form post, so it would stop the browser
 * here. A page that moves on by itself (and a link, should it not) is a navigation, not a post.
 */
function backToClient(location: string): Response {
  const href = escapeHtml(location);
  // Named as the consent page named it: a private-use URI by its scheme (it may have no host).
  const target = escapeHtml(redirectTarget(location) ?? "the app");
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Returning to the app</title></head><body><p><a href="${href}">Continue to ${target}</a></p></body></html>`;
  return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

/** Where the page returned by decideConsent sends the browser (for tests and clients that do not follow a refresh). */
export function clientRedirectOf(html: string): string | null {
  const match = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(html);
  return match ? match[1].replace(/&(amp|quot|lt|gt|#39);/g, (e) => ({ "&amp;": "&", "&quot;": '"', "&lt;": "<", "&gt;": ">", "&#39;": "'" })[e]!) : null;
}

function page(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** The grant an "allow" asks for, or the page that refuses it. */
async function allowedGrant(request: Request, issuer: string, oauthQuery: string, form: URLSearchParams): Promise<{ userId: string; consent: ConsentRequest; scope: GrantScope } | Response> {
  const userId = await consentingUserId(request.headers);
  const consent = userId ? await consentRequest(new URLSearchParams(oauthQuery), userId, issuer) : null;
  if (!userId || !consent) return page(400, "This authorization request has expired or was not signed by this server. Start again from the app.");
  if (consent.resourceMissing) return page(400, RESOURCE_MISSING);
  // Another organization's server and one the user cannot see are the same answer: not found.
  if (!consent.offer) return page(404, "The MCP server this app asks for was not found, or you cannot use it.");
  const scope = chosenScope(consent.offer, form);
  if (!scope) return page(400, "Choose a workspace and at least one of its servers for this app.");
  return { userId, consent, scope };
}

/** The decision posted by the consent page: back to the client with a code, or with access_denied. */
export async function decideConsent(request: Request): Promise<Response> {
  // The browser's own session authorises this write, so it must come from our own page.
  if (!isSameOriginRequest(request.headers, request.url)) return page(403, "This form was sent from another site.");
  const issuer = oauthIssuer(request.headers, request.url);
  if (!issuer) return page(404, "OAuth sign-in is off here.");
  const form = new URLSearchParams(await request.text());
  const oauthQuery = form.get("oauth_query") ?? "";
  const accept = form.get("decision") === "allow";
  const grant = accept ? await allowedGrant(request, issuer, oauthQuery, form) : null;
  if (grant instanceof Response) return grant;
  try {
    // Through better-auth's HTTP handler: its in-process API loses the signed query on the way.
    const answer = await authorizationServer(issuer).handler(
      new Request(`${issuer}${OAUTH_BASE_PATH}/oauth2/consent`, {
        method: "POST",
        // The Origin is required: better-auth refuses a cookie-carrying POST without a trusted
        // Origin (its CSRF check, skipped only when it believes it runs under a test runner —
        // which is why every user's Allow failed and the tests' passed, issue 21). This request
        // is ours, made for a form post already checked to come from our own page (above).
        headers: { cookie: request.headers.get("cookie") ?? "", "content-type": "application/json", origin: issuer },
        body: JSON.stringify({ accept, oauth_query: oauthQuery }),
      }),
    );
    const body = (await answer.json().catch(() => ({}))) as { url?: string; redirect_uri?: string; code?: string; error?: string };
    const location = body.url ?? body.redirect_uri;
    if (!answer.ok || !location) {
      // What better-auth said (an error code, never the query or a token), so the next refusal has a cause in the log.
      logger.warn({ status: answer.status, error: body.code ?? body.error ?? null }, "OAuth consent refused by the authorization server");
      return page(400, "This authorization request has expired or was not signed by this server. Start again from the app.");
    }
    if (grant) await saveGrant({ userId: grant.userId, clientId: grant.consent.clientId, clientName: grant.consent.clientName, resource: grant.consent.resource!, scope: grant.scope });
    return backToClient(location);
  } catch {
    return page(400, "This authorization request could not be completed. Start again from the app.");
  }
}
