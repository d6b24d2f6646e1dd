/**
 * Paths reachable without a browser session. Everything else is an admin page and needs one.
 * The JSON API and MCP endpoints are public here because they authenticate bearer credentials
 * themselves; `/.well-known/` holds the public OAuth metadata MCP clients read before they have
 * any credential (a sign-in redirect there ends their discovery in an HTML parse error).
 */
// `/invite/<secret>`: an invitation link is opened before its person has an account.
const PUBLIC_PREFIXES = ["/api/", "/mcp/", "/_next/", "/.well-known/", "/invite/"];
const PUBLIC_EXACT = new Set(["/signin", "/setup", "/api", "/mcp", "/favicon.ico", "/robots.txt"]);

/** Files served from /public have an extension; admin pages never do. */
const STATIC_FILE = /\/[^/]+\.[a-z0-9]{1,8}$/i;

export function isPublicPath(pathname: string): boolean {
  if (PUBLIC_EXACT.has(pathname)) return true;
  if (PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return true;
  if (pathname.startsWith("/signin/") || pathname.startsWith("/setup/")) return true;
  return STATIC_FILE.test(pathname);
}
