"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { CreateRoleBody } from "@/lib/roles/schemas";
import { createRoleAction } from "@/app/(admin)/orgs/[orgId]/roles/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

export function NewRoleForm({ orgId }: { orgId: string }) {
  const router = useRouter();
  const form = useForm({ resolver: zodResolver(CreateRoleBody), defaultValues: { name: "", tools: [] } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createRoleAction(orgId, values);
    if (applyResult(result, { form, success: `Role "${values.name}" created; now pick its tools` })) router.push(`/orgs/${orgId}/roles/${result.data.id}`);
  });
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
      <div className="w-full">
        <FormAlert form={form} />
      </div>
      <div className="min-w-64 flex-1">
        <Field id="role-name" label="Name" error={errorAt(form, "name")}>
          {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" placeholder="Support agent" />}
        </Field>
      </div>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Creating…" : "Create role"}
      </Button>
    </form>
  );
}
