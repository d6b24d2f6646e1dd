import { setting } from "@/lib/config/settings";
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
