"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { AddWorkspaceMemberBody } from "@/lib/workspaces/schemas";
import { addWorkspaceMemberAction } from "@/app/(admin)/w/[workspaceId]/members/actions";

interface Props {
  workspaceId: string;
  candidates: { userId: string; label: string }[];
  roles: { id: string; name: string }[];
}

export function AddWorkspaceMemberForm({ workspaceId, candidates, roles }: Props) {
  const form = useForm({ resolver: zodResolver(AddWorkspaceMemberBody), defaultValues: { userId: "", mcpRoleId: null as string | null } });
  const onSubmit = form.handleSubmit(async (values) => {
    const label = candidates.find((c) => c.userId === values.userId)?.label ?? "Member";
    const result = await addWorkspaceMemberAction(workspaceId, values);
    if (applyResult(result, { form, success: `${label} added to the workspace` })) form.reset({ userId: "", mcpRoleId: null });
  });
  if (candidates.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Every member of the organization is already in this workspace.</p>;
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" noValidate>
      <div className="sm:col-span-3">
        <FormAlert form={form} />
      </div>
      <Field id="ws-member-user" label="Organization member" error={errorAt(form, "userId")}>
        {(control) => (
          <Select {...control} {...form.register("userId")}>
            <option value="">Choose someone…</option>
            {candidates.map((c) => (
              <option key={c.userId} value={c.userId}>
                {c.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="ws-member-role" label="MCP role" error={errorAt(form, "mcpRoleId")}>
        {(control) => (
          <Select {...control} {...form.register("mcpRoleId", { setValueAs: (v) => (v === "" ? null : v) })}>
            <option value="">No role</option>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Adding…" : "Add member"}
      </Button>
    </form>
  );
}
