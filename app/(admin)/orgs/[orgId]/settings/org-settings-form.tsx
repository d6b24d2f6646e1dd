"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NameSlugFields } from "@/components/admin/name-slug-fields";
import { UpdateOrgBody } from "@/lib/orgs/schemas";
import { deleteOrgAction, updateOrgAction } from "@/app/(admin)/orgs/actions";

export function OrgSettingsForm({ org }: { org: { id: string; name: string; slug: string } }) {
  const form = useForm({ resolver: zodResolver(UpdateOrgBody), defaultValues: { name: org.name, slug: org.slug } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateOrgAction(org.id, values);
    if (applyResult(result, { form, success: "Organization saved" })) form.reset({ name: result.data.name, slug: result.data.slug });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <NameSlugFields form={form} idPrefix="org" autoSlug={false} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

export function DeleteOrgButton({ org }: { org: { id: string; name: string } }) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete organization
        </Button>
      }
      title={`Delete ${org.name}?`}
      description="Everything in the organization is deleted. This cannot be undone."
      confirmLabel="Delete organization"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        const result = await deleteOrgAction(org.id);
        if (!applyResult(result, { success: `Organization "${org.name}" deleted` })) return false;
        router.push("/");
        router.refresh(); // the navigation lists it too
      }}
    />
  );
}
