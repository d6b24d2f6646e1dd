/** What a person reads on the sign-in page; deliberately silent on whether the email exists. */

/** The code next-auth puts in `/signin?error=…` when an attempt is refused for a while. */
export const TOO_MANY_ATTEMPTS_ERROR = "TooManyAttempts";

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

/** Translates the `?error=` code that next-auth's own endpoints redirect with. */
export function messageForNextAuthError(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === "CredentialsSignin") return INVALID_CREDENTIALS_MESSAGE;
  if (code === "SessionRequired") return "Please sign in to continue.";
  if (code.startsWith(`${TOO_MANY_ATTEMPTS_ERROR}:`)) {
    const seconds = Number.parseInt(code.slice(TOO_MANY_ATTEMPTS_ERROR.length + 1), 10);
    return lockedOutMessage((Number.isFinite(seconds) ? seconds : 60) * 1000);
  }
  return "Sign-in failed. Please try again.";
}
