"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { signInAction, ssoSignInAction, type SignInFormState } from "@/app/signin/actions";

/**
 * One email field, two ways on: a password (the instance owner and password accounts), or the
 * single sign-on of the organization that owns the email's domain. The SSO button posts the same
 * form to its own action and skips the password's `required`.
 */
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [passwordState, passwordAction] = useActionState<SignInFormState, FormData>(signInAction, { error: initialError });
  const [ssoState, ssoAction, ssoPending] = useActionState<SignInFormState, FormData>(ssoSignInAction, {});
  const state = (ssoState.at ?? 0) > (passwordState.at ?? 0) ? ssoState : passwordState;
  return (
    <form action={passwordAction} className="grid gap-4">
      {state.error && <Alert id="signin-error">{state.error}</Alert>}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <FormField
        id="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        autoFocus
        defaultValue={state.email}
        aria-describedby={state.error ? "signin-error" : undefined}
      />
      <FormField
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        aria-describedby={state.error ? "signin-error" : undefined}
      />
      <SubmitButton pendingLabel="Signing in…" className="mt-2 w-full">
        Sign in
      </SubmitButton>
      <div className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400" aria-hidden>
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        or
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
      {/* Its name avoids "Sign in": the password button stays the one button of that name. */}
      <Button type="submit" variant="outline" formAction={ssoAction} formNoValidate disabled={ssoPending} className="w-full">
        {ssoPending ? "Opening your identity provider…" : "Use single sign-on (SSO)"}
      </Button>
    </form>
  );
}
