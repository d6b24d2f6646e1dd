"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { signInAction, type SignInFormState } from "@/app/signin/actions";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [state, formAction] = useActionState<SignInFormState, FormData>(signInAction, { error: initialError });
  return (
    <form action={formAction} className="grid gap-4">
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
    </form>
  );
}
