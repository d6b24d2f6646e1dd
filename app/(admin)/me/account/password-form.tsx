"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { applyResult } from "@/components/forms/apply-result";
import { FormAlert } from "@/components/forms/form-alert";
import { SaveButton } from "@/components/forms/save-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ChangePasswordBody } from "@/lib/auth/change-password-schema";
import { changePasswordAction } from "@/app/(admin)/me/account/actions";

/** Current and new password; on success every other session of this person is signed out and their OAuth apps disconnected. */
export function PasswordForm() {
  const form = useForm({ resolver: zodResolver(ChangePasswordBody), defaultValues: { currentPassword: "", newPassword: "" } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await changePasswordAction(values);
    const others = result.ok ? result.data.signedOutSessions : 0;
    const apps = result.ok ? result.data.revokedApps : 0;
    const effects = [
      others > 0 ? `signed out of ${others} other session${others === 1 ? "" : "s"}` : null,
      apps > 0 ? `disconnected ${apps} app${apps === 1 ? "" : "s"} (allow ${apps === 1 ? "it" : "them"} again to reconnect)` : null,
    ].filter(Boolean);
    if (applyResult(result, { form, success: effects.length > 0 ? `Password changed; ${effects.join("; ")}` : "Password changed" })) {
      form.reset({ currentPassword: "", newPassword: "" });
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid max-w-md gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="current-password" label="Current password" error={form.formState.errors.currentPassword?.message}>
        {(control) => <Input {...control} {...form.register("currentPassword")} type="password" autoComplete="current-password" />}
      </Field>
      <Field id="new-password" label="New password" hint="At least 12 characters." error={form.formState.errors.newPassword?.message}>
        {(control) => <Input {...control} {...form.register("newPassword")} type="password" autoComplete="new-password" />}
      </Field>
      <SaveButton form={form}>Change password</SaveButton>
    </form>
  );
}
