import { type NextRequest, NextResponse } from "next/server";
import { badUrlResponse } from "@/lib/api/refuse-bad-url";
import { isPublicPath } from "@/lib/auth/public-paths";
import { isSameOriginRequest } from "@/lib/auth/same-origin";
import { sessionCookieName, verifiedSessionToken } from "@/lib/auth/session-token";
import { NONCE_HEADER, newNonce, pageSecurityHeaders } from "@/lib/net/security-headers";

/**
 * Every page passes here: it gets its security headers (a per-request CSP nonce, which Next
 * reads from the request's own Content-Security-Policy header and puts on its scripts), a server
 * action posted from another site is refused with 403, and visitors without a signed session cookie are
 * sent to /signin, remembering where they were going. Only a first gate: pages re-check the
 * user in the database (app/(admin)/layout.tsx). Before all that, a path Next.js could not
 * decode is refused with 400 (lib/api/refuse-bad-url.ts) — the only reason an API or MCP path
 * comes here at all.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const badUrl = badUrlResponse(request.nextUrl.pathname);
  if (badUrl) return badUrl;
  if (/^\/(?:api|mcp)\//.test(request.nextUrl.pathname)) return NextResponse.next();
  if (request.method === "POST" && request.headers.has("next-action") && !isSameOriginRequest(request.headers, request.url)) {
    // Next refuses these too, but by throwing: a 500 that looks like our fault.
    return new NextResponse("This form was sent from another site.", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const nonce = newNonce();
  const headers = pageSecurityHeaders(nonce);
  const response = await route(request, headers["content-security-policy"], nonce);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

async function route(request: NextRequest, policy: string, nonce: string): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  if (isPublicPath(pathname) || hasSession(request)) {
    const forwarded = new Headers(request.headers);
    forwarded.set("content-security-policy", policy);
    forwarded.set(NONCE_HEADER, nonce); // for our own inline script (app/layout.tsx)
    return NextResponse.next({ request: { headers: forwarded } });
  }
  const signInUrl = new URL("/signin", request.url);
  signInUrl.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signInUrl);
}

/**
 * A cookie carrying a session token we signed. Whether that session is still live (not signed
 * out, not revoked, not expired) is the page's database check; this only keeps strangers out.
 */
function hasSession(request: NextRequest): boolean {
  return verifiedSessionToken(request.cookies.get(sessionCookieName())?.value) !== null;
}

export const config = {
  // Skip the hot paths outright; isPublicPath() decides the rest. Of the API and MCP paths only
  // those with a percent-escape come here (Next tests the raw path too), for badUrlResponse().
  matcher: ["/((?!api/|mcp/|_next/static/|_next/image/).*)", "/((?:api|mcp)/.*%.*)"],
};
