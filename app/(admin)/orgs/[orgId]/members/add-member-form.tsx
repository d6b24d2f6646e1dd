"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { WorkspaceCheckboxes } from "@/components/forms/workspace-checkboxes";
import { CreateUserBody } from "@/lib/users/schemas";
import { addOrgMemberByEmailAction } from "@/app/(admin)/orgs/[orgId]/members/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

const blankToUndefined = (value: unknown) => (value === "" ? undefined : value);

export function AddOrgMemberForm({ orgId, workspaces }: { orgId: string; workspaces: { id: string; name: string }[] }) {
  const form = useForm({ resolver: zodResolver(CreateUserBody.omit({ orgId: true })), defaultValues: { email: "", workspaceIds: [] as string[] } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await addOrgMemberByEmailAction(orgId, values);
    // An existing account is never added outright: its user has to accept the invitation.
    const success = result.ok && result.data.kind === "invitation" ? `${values.email} invited: they join once they accept` : `${values.email} added to the organization`;
    if (applyResult(result, { form, success })) form.reset({ email: "", workspaceIds: [] });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="member-email" label="Email" error={errorAt(form, "email")}>
        {(control) => <Input {...control} {...form.register("email")} type="email" autoComplete="off" />}
      </Field>
      <Field id="member-name" label="Name (optional)" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name", { setValueAs: blankToUndefined })} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
      </Field>
      <Field
        id="member-password"
        label="Initial password (optional)"
        hint="For a new account only. Share it with them so they can sign in; without one they can use API keys only."
        error={errorAt(form, "password")}
      >
        {(control) => <Input {...control} {...form.register("password", { setValueAs: blankToUndefined })} type="password" autoComplete="new-password" />}
      </Field>
      <WorkspaceCheckboxes idPrefix="member-ws" workspaces={workspaces} register={form.register("workspaceIds")} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Adding…" : "Add to organization"}
        </Button>
      </div>
    </form>
  );
}
