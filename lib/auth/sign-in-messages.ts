/** What a person reads on the sign-in page; deliberately silent on whether the email exists. */

export const INVALID_CREDENTIALS_MESSAGE = "Incorrect email or password.";

/** "4 minutes", "30 seconds": rounded up, so nobody retries too early. */
export function describeWait(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export function lockedOutMessage(retryAfterMs: number): string {
  return `Too many sign-in attempts. Try again in ${describeWait(retryAfterMs)}.`;
}

/** The `?error=` codes single sign-on returns to /signin with (lib/sso/sso-callback.ts). */
const SIGN_IN_ERRORS: Record<string, string> = {
  SessionRequired: "Please sign in to continue.",
  SsoNotConfigured: "Single sign-on is not set up for that email domain. Sign in with your password.",
  SsoNotMember: "Your organization does not let new people join by single sign-on. Ask an admin to invite you.",
  SsoLinkRefused:
    "Your account cannot sign in by single sign-on: it is an owner of this organization, a member of another organization, or the instance owner. Sign in with your password (or the way you signed in before).",
  SsoDomainNotAllowed: "Your email address is not in a domain your organization signs in with.",
  SsoEmailUnverified: "Your identity provider has not verified your email address.",
  SsoFailed: "Single sign-on failed. Please try again.",
};

/** Translates the `?error=` code of a redirect back to the sign-in page. */
export function messageForSignInError(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return SIGN_IN_ERRORS[code] ?? "Sign-in failed. Please try again.";
}
