import { sessionTokenFromCookieHeader } from "@/lib/auth/session-token";
import { sessionUserIdFromRequest, userIdFromSessionToken } from "@/lib/auth/sessions";
import { OAUTH_BASE_PATH } from "@/lib/oauth/authorization-server";

/**
 * The authorization server's login page. Admin sessions are the authorization server's own
 * (one better-auth instance, one cookie), so a browser sent here either has one — and goes back
 * to the authorization request — or is sent to /signin, which returns here.
 */

/** better-auth's signature over the redirect, not the client's request: dropped on the way back. */
const SIGNATURE_PARAMS = new Set(["sig", "exp", "ba_iat", "ba_param"]);

export const CONTINUE_PATH = "/oauth/continue";

export async function continueAfterSignIn(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const userId = await sessionUserIdFromRequest(request);
  if (!userId) return redirect(`/signin?callbackUrl=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  const authorize = new URLSearchParams();
  for (const [key, value] of url.searchParams) if (!SIGNATURE_PARAMS.has(key)) authorize.append(key, value);
  return redirect(`${OAUTH_BASE_PATH}/oauth2/authorize?${authorize}`);
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
}

/**
 * The signed-in user (the admin console's session, which is also the one better-auth issues the
 * code to): the person the consent page speaks to. Null when there is none.
 */
export async function consentingUserId(headers: Headers): Promise<string | null> {
  return userIdFromSessionToken(sessionTokenFromCookieHeader(headers.get("cookie")));
}
