import { isSameOriginRequest } from "@/lib/auth/same-origin";
import { authorizationServer, issuerOrigin, OAUTH_BASE_PATH } from "@/lib/oauth/authorization-server";

/**
 * SPIKE: the minimal consent step. better-auth sends the browser to the consent page with the
 * authorization request, signed; the page shows who asks (client name, where it sends the
 * answer, what it asks for) and posts the decision back with that signed query. Choosing which
 * servers a token reaches (issue 13 point 3) is not built yet.
 */

export const CONSENT_PATH = "/oauth/consent";
export const CONSENT_DECIDE_PATH = "/oauth/consent/decide";

export interface ConsentRequest {
  clientName: string;
  redirectHost: string;
  scopes: string[];
  resource: string | null;
  /** The signed query, posted back unchanged. */
  oauthQuery: string;
}

/** What the consent page shows for its query string, or null when it names no registered client. */
export async function consentRequest(search: URLSearchParams): Promise<ConsentRequest | null> {
  const clientId = search.get("client_id");
  if (!clientId || !search.get("sig")) return null;
  const context = await authorizationServer().$context;
  const client = await context.adapter.findOne<{ name: string | null }>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });
  if (!client) return null;
  let redirectHost = "";
  try {
    redirectHost = new URL(search.get("redirect_uri") ?? "").host;
  } catch {
    return null;
  }
  return {
    clientName: client.name || clientId,
    redirectHost,
    scopes: (search.get("scope") ?? "").split(" ").filter(Boolean),
    resource: search.get("resource"),
    oauthQuery: search.toString(),
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&#39;" };

/**
 * The way back to the client's redirect URI. Not a 303: the pages' CSP says `form-action 'self'`,
 * and Chromium applies it to the redirects that follow a form post, so it would stop the browser
 * here. A page that moves on by itself (and a link, should it not) is a navigation, not a post.
 */
function backToClient(location: string): Response {
  const href = location.replace(/[&"<>']/g, (c) => HTML_ESCAPES[c]);
  const host = new URL(location).host.replace(/[&"<>']/g, (c) => HTML_ESCAPES[c]);
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Returning to the app</title></head><body><p><a href="${href}">Continue to ${host}</a></p></body></html>`;
  return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

/** Where the page returned by decideConsent sends the browser (for tests and clients that do not follow a refresh). */
export function clientRedirectOf(html: string): string | null {
  const match = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(html);
  return match ? match[1].replace(/&(amp|quot|lt|gt|#39);/g, (e) => ({ "&amp;": "&", "&quot;": '"', "&lt;": "<", "&gt;": ">", "&#39;": "'" })[e]!) : null;
}

/** The decision posted by the consent page: back to the client with a code, or with access_denied. */
export async function decideConsent(request: Request): Promise<Response> {
  // The browser's own session authorises this write, so it must come from our own page.
  if (!isSameOriginRequest(request.headers, request.url)) return new Response("This form was sent from another site.", { status: 403 });
  const form = new URLSearchParams(await request.text());
  const oauthQuery = form.get("oauth_query") ?? "";
  try {
    // Through better-auth's HTTP handler: its in-process API loses the signed query on the way.
    const answer = await authorizationServer().handler(
      new Request(`${issuerOrigin()}${OAUTH_BASE_PATH}/oauth2/consent`, {
        method: "POST",
        headers: { cookie: request.headers.get("cookie") ?? "", "content-type": "application/json" },
        body: JSON.stringify({ accept: form.get("decision") === "allow", oauth_query: oauthQuery }),
      }),
    );
    const body = (await answer.json()) as { url?: string; redirect_uri?: string };
    const location = body.url ?? body.redirect_uri;
    if (!answer.ok || !location) return new Response("This authorization request has expired or was not signed by this server. Start again from the app.", { status: 400 });
    return backToClient(location);
  } catch {
    return new Response("This authorization request could not be completed. Start again from the app.", { status: 400 });
  }
}
