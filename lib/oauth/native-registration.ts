import { OAUTH_BASE_PATH } from "@/lib/oauth/authorization-server";

/**
 * SPIKE: dynamic registrations that name no `application_type` and redirect only to loopback
 * http are taken as native apps (RFC 8252 §7.3). better-auth 1.7.5 applies OpenID's default
 * ("web"), which refuses loopback http — and the MCP SDK v1, mcp-remote and the clients built on
 * them register exactly so (`http://localhost:<port>/callback`, no application_type).
 */

const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//i;

export async function withNativeDefault(request: Request): Promise<Request> {
  const { pathname } = new URL(request.url);
  if (request.method !== "POST" || pathname !== `${OAUTH_BASE_PATH}/oauth2/register`) return request;
  if (!request.headers.get("content-type")?.includes("application/json")) return request;
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Request(request, { body: text });
  }
  const registration = body as { application_type?: unknown; redirect_uris?: unknown };
  const uris = Array.isArray(registration?.redirect_uris) ? registration.redirect_uris : [];
  if (registration && registration.application_type === undefined && uris.length > 0 && uris.every((u) => typeof u === "string" && LOOPBACK_HTTP.test(u))) {
    registration.application_type = "native";
  }
  return new Request(request, { body: JSON.stringify(registration) });
}
