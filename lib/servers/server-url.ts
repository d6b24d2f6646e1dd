import { validateHostHeader } from "@modelcontextprotocol/server";
import { setting } from "@/lib/config/settings";
import { allowedHostnames } from "@/lib/mcp/serve/http-edge/validate-origin";

/**
 * Where MCP clients reach this platform: `PUBLIC_URL` when set (behind a proxy the request's
 * own origin is an internal address), otherwise the origin the request came to.
 */
export function publicBaseUrl(requestUrl: string): string {
  const configured = setting("PUBLIC_URL");
  return (configured || new URL(requestUrl).origin).replace(/\/+$/, "");
}

/** The absolute MCP endpoint of one server. */
export function serverUrl(baseUrl: string, serverId: string): string {
  return `${baseUrl}/mcp/${encodeURIComponent(serverId)}`;
}

/**
 * Where clients reach this instance: `PUBLIC_URL`, else the Host the request named. Not the
 * request's own URL: behind `next start` that is the server's listening address
 * (http://localhost:<port>), which a client elsewhere cannot reach. A Host the MCP endpoints
 * would refuse (lib/mcp/serve/http-edge/validate-origin.ts) gives null, so no document ever repeats a
 * name a client made up. The scheme follows X-Forwarded-Proto, as the admin pages do.
 */
export function publicOrigin(headers: Headers, requestUrl: string): string | null {
  if (setting("PUBLIC_URL")) return publicBaseUrl(requestUrl);
  const allowed = allowedHostnames();
  const host = headers.get("host");
  if (!host || (allowed !== "*" && !validateHostHeader(host, allowed).ok)) return null;
  const forwarded = headers.get("x-forwarded-proto")?.split(",")[0].trim();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : new URL(requestUrl).protocol.slice(0, -1);
  return publicBaseUrl(`${scheme}://${host}`);
}

/**
 * The base URL to show a client in an answer (a server's `url`): `publicOrigin`, or — for a
 * Host the MCP endpoints would refuse — the request's own origin, as before.
 */
export function clientBaseUrl(headers: Headers, requestUrl: string): string {
  return publicOrigin(headers, requestUrl) ?? publicBaseUrl(requestUrl);
}
