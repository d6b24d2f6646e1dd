import { setting } from "@/lib/config/settings";

/**
 * Cross-site request forgery guard for requests that a browser authenticates by itself (the
 * session cookie). A write is ours when the browser says so: `Sec-Fetch-Site: same-origin`, or,
 * from a browser too old to send that, an `Origin` that is this platform's. A request with neither
 * header does not come from a web page (browsers send `Origin` on every cross-origin write), so
 * nothing ambient is being abused and it passes.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

export function isSameOriginRequest(headers: Headers, requestUrl: string): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin";
  const origin = headers.get("origin");
  if (origin === null) return true;
  return ownOrigins(headers, requestUrl).has(origin.toLowerCase());
}

/** The origins this platform is reached at: configured, and the one this request was sent to. */
function ownOrigins(headers: Headers, requestUrl: string): Set<string> {
  const origins = new Set<string>();
  for (const configured of [setting("PUBLIC_URL"), setting("NEXTAUTH_URL")]) {
    if (configured) origins.add(new URL(configured).origin);
  }
  const url = new URL(requestUrl);
  origins.add(url.origin);
  // Behind a proxy the browser's origin is the proxy's host, which the request names.
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  const protocol = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(/:$/, "");
  if (host) origins.add(`${protocol}://${host}`.toLowerCase());
  return origins;
}
