import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { setting } from "@/lib/config/settings";
import { isCorsOrigin } from "@/lib/mcp/serve/http-edge/cors";

/**
 * DNS-rebinding protection for the MCP endpoints (neither SDK transport does it): the Host
 * header must name this platform, and an Origin header, when a browser sends one, must too.
 *
 * Allowed hostnames: `MCP_ALLOWED_HOSTS` (comma-separated, ports ignored; `*` allows any)
 * when set, otherwise localhost, 127.0.0.1 and [::1]; the host of `PUBLIC_URL` is always
 * allowed, since it is where clients are told to connect. With `*`, any Host is accepted and
 * an Origin must name the same host as the Host header (a browser page of another site is
 * still refused). Origins listed in MCP_CORS_ORIGINS are let in too (lib/mcp/serve/http-edge/cors.ts).
 */

const LOCALHOST = ["localhost", "127.0.0.1", "[::1]"];

function hostnameOf(entry: string): string | null {
  const trimmed = entry.trim().toLowerCase();
  if (!trimmed) return null;
  try {
    return new URL(trimmed.includes("://") ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return null;
  }
}

/** The hostnames a request may name in Host and Origin, or "*" for any. */
export function allowedHostnames(): string[] | "*" {
  const configured = setting("MCP_ALLOWED_HOSTS")?.split(",").map((s) => s.trim()).filter(Boolean);
  if (configured?.includes("*")) return "*";
  const hosts = configured?.length ? configured.map(hostnameOf).filter((h): h is string => h !== null) : [...LOCALHOST];
  const publicUrl = setting("PUBLIC_URL");
  const publicHost = publicUrl ? hostnameOf(publicUrl) : null;
  if (publicHost && !hosts.includes(publicHost)) hosts.push(publicHost);
  return hosts;
}

/**
 * Why the request's Host or Origin is refused, or null when both are acceptable. The
 * message names the offending value (it came from the client) and nothing else.
 */
export function untrustedHostOrOrigin(headers: Headers): string | null {
  const allowed = allowedHostnames();
  if (allowed === "*") return isCorsOrigin(headers.get("origin")) ? null : sameHostOrigin(headers);
  const host = validateHostHeader(headers.get("host"), allowed);
  if (!host.ok) return host.message;
  if (isCorsOrigin(headers.get("origin"))) return null; // a web page the operator let in (MCP_CORS_ORIGINS)
  const origin = validateOriginHeader(headers.get("origin"), allowed);
  return origin.ok ? null : origin.message;
}

function sameHostOrigin(headers: Headers): string | null {
  const origin = headers.get("origin");
  if (!origin) return null;
  const hostHeader = headers.get("host");
  const host = hostHeader ? hostnameOf(hostHeader) : null;
  if (!host) return `Invalid Host header: ${hostHeader ?? ""}`;
  const result = validateOriginHeader(origin, [host]);
  return result.ok ? null : result.message;
}
