"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { FormField } from "@/components/ui/form-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { createOwnerAction, type SetupFormState } from "@/app/setup/actions";

export function SetupForm({ minPasswordLength }: { minPasswordLength: number }) {
  const [state, formAction] = useActionState<SetupFormState, FormData>(createOwnerAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={formAction} className="grid gap-4">
      {state.error && (
        <Alert>
          {state.error}{" "}
          <Link href="/signin" className="font-medium underline underline-offset-2">
            Go to sign in
          </Link>
        </Alert>
      )}
      <FormField id="email" label="Email" type="email" autoComplete="email" required autoFocus defaultValue={state.values?.email} error={errors.email} />
      <FormField id="name" label="Name" autoComplete="name" required maxLength={100} defaultValue={state.values?.name} error={errors.name} />
      <FormField
        id="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        hint={`At least ${minPasswordLength} characters.`}
        error={errors.password}
      />
      <FormField
        id="confirmPassword"
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        error={errors.confirmPassword}
      />
      <SubmitButton pendingLabel="Creating account…" className="mt-2 w-full">
        Create owner account
      </SubmitButton>
    </form>
  );
}
