import { getToken } from "next-auth/jwt";
import { type NextRequest, NextResponse } from "next/server";
import { badUrlResponse } from "@/lib/api/refuse-bad-url";
import { isPublicPath } from "@/lib/auth/public-paths";
import { authSecret, sessionCookieName, usesSecureCookies } from "@/lib/auth/session-token";

/**
 * Sends visitors without a valid session to /signin, remembering where they were going. Only a
 * first gate: pages re-check the user in the database (app/(admin)/layout.tsx). Before that, a
 * path Next.js could not decode is refused with 400 (lib/api/refuse-bad-url.ts).
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname, search } = request.nextUrl;
  const badUrl = badUrlResponse(pathname);
  if (badUrl) return badUrl;
  if (isPublicPath(pathname)) return NextResponse.next();
  const token = await getToken({
    req: request,
    secret: authSecret(),
    secureCookie: usesSecureCookies(),
    cookieName: sessionCookieName(),
  });
  if (token?.sub) return NextResponse.next();
  const signInUrl = new URL("/signin", request.url);
  signInUrl.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signInUrl);
}

export const config = {
  // Skip the hot paths outright; isPublicPath() decides the rest. Of the API and MCP paths only
  // those with a percent-escape come here (Next tests the raw path too), for badUrlResponse().
  matcher: ["/((?!api/|mcp/|_next/static/|_next/image/).*)", "/((?:api|mcp)/.*%.*)"],
};
