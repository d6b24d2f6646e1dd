"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { signInWithPassword, type PasswordSignInResult } from "@/lib/auth/password-sign-in";
import { startSession } from "@/lib/auth/session-cookie";
import { INVALID_CREDENTIALS_MESSAGE, lockedOutMessage, messageForSignInError } from "@/lib/auth/sign-in-messages";
import { usesSecureCookies } from "@/lib/auth/session-token";
import { SSO_STATE_COOKIE, startSsoSignIn, type StartSsoResult } from "@/lib/sso/start-sso-sign-in";
import { publicOrigin } from "@/lib/servers/server-url";
import { logger } from "@/lib/log";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";

export interface SignInFormState {
  error?: string;
  email?: string;
  /** When the answer was made: the form shows the newer of its two actions' answers. */
  at?: number;
}

/** The sign-in form's action: works as a plain HTML form post when JavaScript is off. */
export async function signInAction(_previous: SignInFormState, formData: FormData): Promise<SignInFormState> {
  const email = String(formData.get("email") ?? "");
  const password = String(formData.get("password") ?? "");
  const callbackPath = safeCallbackPath(formData.get("callbackUrl"));
  let result: PasswordSignInResult;
  try {
    result = await signInWithPassword({ email, password, clientIp: clientIpFromHeaders(await headers()) });
  } catch (error) {
    logger.error({ err: String(error) }, "sign-in failed unexpectedly");
    return { email, error: "Sign-in is unavailable right now. Please try again in a moment." };
  }
  if (!result.ok) {
    return { email, at: Date.now(), error: result.reason === "locked" ? lockedOutMessage(result.retryAfterMs) : INVALID_CREDENTIALS_MESSAGE };
  }
  await startSession(result.user);
  redirect(callbackPath);
}

/**
 * "Sign in with SSO": the email's domain names the organization and its identity provider,
 * where the browser goes next. The state cookie ties the provider's answer to this browser.
 */
export async function ssoSignInAction(_previous: SignInFormState, formData: FormData): Promise<SignInFormState> {
  const email = String(formData.get("email") ?? "");
  if (!email.includes("@")) return { email, at: Date.now(), error: "Enter your work email to sign in with SSO." };
  let result: StartSsoResult;
  try {
    const requestHeaders = await headers();
    const origin = publicOrigin(requestHeaders, `http://${requestHeaders.get("host") ?? "localhost"}/`);
    result = await startSsoSignIn({ email, callbackPath: safeCallbackPath(formData.get("callbackUrl")), origin });
  } catch (error) {
    logger.error({ err: String(error) }, "single sign-on could not start");
    return { email, at: Date.now(), error: "Your identity provider cannot be reached right now. Please try again in a moment." };
  }
  if (!result.ok) return { email, at: Date.now(), error: messageForSignInError(result.code) };
  (await cookies()).set(SSO_STATE_COOKIE, result.state, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 600, secure: usesSecureCookies() });
  redirect(result.url);
}
