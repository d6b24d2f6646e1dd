"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { JoinWithNewAccountBody } from "@/lib/invitations/schemas";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";
import { acceptInvitationLinkAction, joinWithNewAccountAction } from "@/app/invite/[token]/actions";

/** Accept, for the signed-in person the invitation names; then their overview of the organization. */
export function AcceptInvitationButton({ token, orgName }: { token: string; orgName: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const accept = () =>
    startTransition(async () => {
      const result = await acceptInvitationLinkAction(token);
      if (applyResult(result, { success: `You joined ${orgName}` })) router.push(`/orgs/${result.data.orgId}`);
    });
  return (
    <Button type="button" className="w-full" disabled={pending} onClick={accept}>
      {pending ? "Joining…" : `Accept and join ${orgName}`}
    </Button>
  );
}

/** No account has the invited email yet: choose a name and password, then sign in with them. */
export function JoinWithNewAccountForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const form = useForm({ resolver: zodResolver(JoinWithNewAccountBody), defaultValues: { name: "", password: "" } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await joinWithNewAccountAction(token, values);
    if (applyResult(result, { form, success: "Your account is ready: sign in with it" })) router.push("/signin");
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="invite-email" label="Email">
        {(control) => <Input {...control} value={email} readOnly autoComplete="username" />}
      </Field>
      <Field id="invite-name" label="Your name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="name" />}
      </Field>
      <Field id="invite-password" label="Password" hint="At least 12 characters." error={errorAt(form, "password")}>
        {(control) => <Input {...control} {...form.register("password")} type="password" autoComplete="new-password" />}
      </Field>
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Creating your account…" : "Create account and join"}
      </Button>
    </form>
  );
}
