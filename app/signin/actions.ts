"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { signInWithPassword, type PasswordSignInResult } from "@/lib/auth/password-sign-in";
import { startSession } from "@/lib/auth/session-cookie";
import { INVALID_CREDENTIALS_MESSAGE, lockedOutMessage } from "@/lib/auth/sign-in-messages";
import { logger } from "@/lib/log";
import { clientIpFromHeaders } from "@/lib/ratelimit/client-ip";

export interface SignInFormState {
  error?: string;
  email?: string;
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
    return { email, error: result.reason === "locked" ? lockedOutMessage(result.retryAfterMs) : INVALID_CREDENTIALS_MESSAGE };
  }
  await startSession(result.user);
  redirect(callbackPath);
}
