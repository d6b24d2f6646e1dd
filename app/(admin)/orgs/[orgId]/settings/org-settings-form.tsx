"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { DeleteButton } from "@/components/forms/delete-button";
import { SaveButton } from "@/components/forms/save-button";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { NameSlugFields } from "@/components/admin/name-slug-fields";
import { UpdateOrgBody } from "@/lib/orgs/schemas";
import { deleteOrgAction, updateOrgAction } from "@/app/(admin)/orgs/actions";

/** `version`: the organization's ETag as the page loaded it. */
export function OrgSettingsForm({ org, version: loaded }: { org: { id: string; name: string; slug: string }; version: string }) {
  const version = useObjectVersion(`org:${org.id}`, loaded);
  const form = useForm({ resolver: zodResolver(UpdateOrgBody), defaultValues: { name: org.name, slug: org.slug } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateOrgAction(org.id, values, version.current());
    version.track(result);
    if (applyResult(result, { form, success: "Organization saved" })) form.reset({ name: result.data.name, slug: result.data.slug });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <NameSlugFields form={form} idPrefix="org" autoSlug={false} />
      <SaveButton form={form} />
    </form>
  );
}

export function DeleteOrgButton({ org, version: loaded }: { org: { id: string; name: string }; version: string }) {
  const version = useObjectVersion(`org:${org.id}`, loaded);
  return (
    <DeleteButton
      label="Delete organization"
      name={org.name}
      description="Everything in the organization is deleted. This cannot be undone."
      success={`Organization "${org.name}" deleted`}
      action={() => deleteOrgAction(org.id, version.current())}
      redirectTo="/"
    />
  );
}
