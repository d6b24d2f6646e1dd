import { serializeSignedCookie } from "better-call";
import { authSecret, sessionUserIdFromRequest } from "@/lib/auth/session-token";
import { authorizationServer, OAUTH_BASE_PATH } from "@/lib/oauth/authorization-server";

/**
 * SPIKE: the authorization server's login page. Admins still sign in with next-auth, so when
 * better-auth sends a browser here (no session of its own), the signed-in next-auth user gets a
 * better-auth session and the browser goes back to the authorization request. Without a
 * next-auth session the page gate (proxy.ts) has already sent it to /signin, which returns here.
 */

/** better-auth's signature over the redirect, not the client's request: dropped on the way back. */
const SIGNATURE_PARAMS = new Set(["sig", "exp", "ba_iat", "ba_param"]);

export const CONTINUE_PATH = "/oauth/continue";

export async function continueAfterSignIn(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const userId = await sessionUserIdFromRequest(request);
  if (!userId) return redirect(`/signin?callbackUrl=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  const context = await authorizationServer().$context;
  if (!(await context.internalAdapter.findUserById(userId))) return redirect("/signin");
  const session = await context.internalAdapter.createSession(userId);
  const { name, attributes } = context.authCookies.sessionToken;
  const cookie = await serializeSignedCookie(name, session.token, authSecret(), { ...attributes, maxAge: context.sessionConfig.expiresIn });
  const authorize = new URLSearchParams();
  for (const [key, value] of url.searchParams) if (!SIGNATURE_PARAMS.has(key)) authorize.append(key, value);
  return redirect(`${OAUTH_BASE_PATH}/oauth2/authorize?${authorize}`, cookie);
}

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  if (cookie) headers.append("set-cookie", cookie);
  return new Response(null, { status: 302, headers });
}

/**
 * The user of the authorization server's own session (the one this bridge set, which better-auth
 * issues the code to): the person the consent page speaks to. Null when there is none.
 */
export async function consentingUserId(headers: Headers): Promise<string | null> {
  const session = await authorizationServer().api.getSession({ headers });
  return session?.user.id ?? null;
}
