import { NextResponse } from "next/server";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { SESSION_MAX_AGE_SEC, sessionCookieName, usesSecureCookies } from "@/lib/auth/session-token";
import { openSession } from "@/lib/auth/sessions";
import { errorText, logger } from "@/lib/log";
import { finishSsoSignIn } from "@/lib/sso/finish-sso-sign-in";
import { SSO_STATE_COOKIE } from "@/lib/sso/start-sso-sign-in";

/** The HTTP side of the callback: the browser leaves signed in, or back at /signin with a reason. */

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return undefined;
}

function isHttps(request: Request): boolean {
  return usesSecureCookies() || request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" || new URL(request.url).protocol === "https:";
}

function redirectTo(location: string, request: Request): NextResponse {
  const response = new NextResponse(null, { status: 302, headers: { location, "cache-control": "no-store" } });
  response.cookies.set(SSO_STATE_COOKIE, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: isHttps(request) });
  return response;
}

export async function ssoCallbackResponse(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  if (query.get("error")) return redirectTo("/signin?error=SsoFailed", request);
  try {
    const result = await finishSsoSignIn({ state: query.get("state"), code: query.get("code"), stateCookie: cookieValue(request, SSO_STATE_COOKIE) });
    if (!result.ok) return redirectTo(`/signin?error=${result.code}`, request);
    const response = redirectTo(safeCallbackPath(result.callbackPath), request);
    response.cookies.set(sessionCookieName(), await openSession(result.userId), {
      path: "/", maxAge: SESSION_MAX_AGE_SEC, httpOnly: true, sameSite: "lax", secure: isHttps(request),
    });
    return response;
  } catch (error) {
    logger.error({ err: errorText(error) }, "single sign-on callback failed");
    return redirectTo("/signin?error=SsoFailed", request);
  }
}
