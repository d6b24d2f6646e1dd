"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NameSlugFields } from "@/components/admin/name-slug-fields";
import { CreateOrgBody } from "@/lib/orgs/schemas";
import { createOrgAction } from "@/app/(admin)/orgs/actions";

export function NewOrgForm() {
  const router = useRouter();
  const form = useForm({ resolver: zodResolver(CreateOrgBody), defaultValues: { name: "", slug: "" } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createOrgAction(values);
    if (applyResult(result, { form, success: `Organization "${values.name}" created` })) router.push(`/orgs/${result.data.id}/workspaces`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <NameSlugFields form={form} idPrefix="org" autoSlug />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Creating…" : "Create organization"}
        </Button>
      </div>
    </form>
  );
}
