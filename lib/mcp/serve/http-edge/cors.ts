import { setting } from "@/lib/config/settings";

/**
 * Browser MCP clients on other sites (an inspector page, a web chat) reach /mcp/* only from
 * the origins an operator lists in MCP_CORS_ORIGINS (comma-separated `scheme://host[:port]`,
 * or `*` for any). For those, the DNS-rebinding check accepts the Origin, preflights are
 * answered, and answers carry the CORS headers a client needs to read them — the session id,
 * the authentication challenge and the protocol version among them. Without the setting no
 * cross-origin page is served, as before.
 */

const ALLOWED_METHODS = "GET, POST, DELETE";
const ALLOWED_HEADERS = "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name";
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate, retry-after";
const PREFLIGHT_MAX_AGE_SEC = "600";

function allowedOrigins(): string[] | "*" {
  const entries = (setting("MCP_CORS_ORIGINS") ?? "").split(",").map((s) => s.trim().replace(/\/+$/, "").toLowerCase()).filter(Boolean);
  return entries.includes("*") ? "*" : entries;
}

/** Whether `origin` (an Origin header's value) is one MCP_CORS_ORIGINS lets in. */
export function isCorsOrigin(origin: string | null): origin is string {
  if (!origin || origin === "null") return false;
  const allowed = allowedOrigins();
  return allowed === "*" || allowed.includes(origin.toLowerCase());
}

/** Adds the CORS answer headers when the request came from an allowed origin; the response otherwise unchanged. */
export function withCors(request: Request, response: Response): Response {
  const origin = request.headers.get("origin");
  if (!isCorsOrigin(origin)) return response;
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  if (!/\borigin\b/i.test(headers.get("vary") ?? "")) headers.append("vary", "Origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The answer to OPTIONS: a CORS preflight gets 204 with what may be sent, or 403 for an origin
 * not listed; without an Origin (not a browser) it is 204 naming the methods.
 */
export function preflightResponse(request: Request): Response {
  const origin = request.headers.get("origin");
  if (origin === null) return new Response(null, { status: 204, headers: { allow: `${ALLOWED_METHODS}, OPTIONS` } });
  if (!isCorsOrigin(origin)) {
    return new Response(null, { status: 403, headers: { vary: "Origin", "cache-control": "no-store" } });
  }
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": PREFLIGHT_MAX_AGE_SEC,
      vary: "Origin",
    },
  });
}
