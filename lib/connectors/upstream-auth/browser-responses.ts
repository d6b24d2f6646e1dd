import { sessionUserIdFromRequest } from "@/lib/auth/sessions";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { errorText, logger } from "@/lib/log";
import { clientBaseUrl } from "@/lib/servers/server-url";
import { setting } from "@/lib/config/settings";
import { isAppError } from "@/lib/errors";
import { beginAttempt, CALLBACK_PATH, clientMetadataUrl, connectableConnector } from "@/lib/connectors/upstream-auth/connect";
import { completeConnection } from "@/lib/connectors/upstream-auth/complete";

/**
 * The browser side of connecting (issue 24 points 3 and 4): the callback's pages, the connect
 * link of an MCP answer, and our Client ID Metadata Document. Small plain pages: a person
 * reads them once, between the upstream's consent and their MCP client.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Switchboard</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}a{color:#2563eb}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/me/connections">Your connections</a></p></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

function signIn(request: Request): Response {
  const url = new URL(request.url);
  return redirect(`/signin?callbackUrl=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
}

export async function connectionCallbackResponse(request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    const outcome = await completeConnection(url.searchParams, await sessionUserIdFromRequest(request), `${url.pathname}${url.search}`);
    if (outcome.kind === "sign_in") return signIn(request);
    if (outcome.kind === "refused") return page(400, "Not connected", outcome.message);
    if (outcome.returnTo) return redirect(safeCallbackPath(outcome.returnTo));
    return page(200, "Connected", `Your account is connected to "${outcome.connectorName}". You can close this page and retry in your MCP client.`);
  } catch (e) {
    logger.error({ err: errorText(e) }, "upstream connection callback failed");
    return page(500, "Not connected", "Something went wrong while connecting. Nothing was stored; start connecting again.");
  }
}

/**
 * The connect link: sign in if needed, as the person the link was made for (the person the
 * key or OAuth token belongs to) — another person's session is refused — then on to the
 * upstream's authorization page.
 */
export async function connectLinkResponse(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const connectorId = query.get("connector") ?? "";
  const person = query.get("person") ?? "";
  const userId = await sessionUserIdFromRequest(request);
  if (!userId) return signIn(request);
  if (userId !== person) return page(403, "Another person's link", "This connect link was made for another person. Sign out, and sign in as the person whose key or app asked to connect.");
  try {
    const connector = await connectableConnector({ kind: "user", userId, apiKey: null }, connectorId);
    if (connector.auth.connection === "shared" && connector.role !== "owner" && connector.role !== "admin") {
      return page(403, "Not connected", "Only an owner or admin of the organization connects this connector.");
    }
    const { authorizationUrl } = await beginAttempt(connector, userId, clientBaseUrl(request.headers, request.url));
    return redirect(authorizationUrl);
  } catch (e) {
    if (isAppError(e)) return page(e.code === "not_found" ? 404 : 400, "Not connected", e.message);
    logger.error({ err: errorText(e) }, "connect link failed");
    return page(500, "Not connected", "Something went wrong while starting to connect.");
  }
}

/** Served only where it can be used: under an https PUBLIC_URL (else 404). */
export function clientMetadataDocumentResponse(): Response {
  const clientId = clientMetadataUrl();
  if (!clientId) return new Response("Not found", { status: 404 });
  const base = setting("PUBLIC_URL")!.replace(/\/+$/, "");
  const document = {
    client_id: clientId,
    client_name: "Switchboard",
    client_uri: base,
    redirect_uris: [`${base}${CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "web",
  };
  return Response.json(document, { headers: { "cache-control": "public, max-age=3600" } });
}
