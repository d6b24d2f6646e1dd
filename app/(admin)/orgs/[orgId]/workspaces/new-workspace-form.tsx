"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { NameSlugFields } from "@/components/admin/name-slug-fields";
import { SwitchField } from "@/components/admin/switch-field";
import { KNOWLEDGE_GRAPH_HINT, TOOL_WHITELISTS_HINT } from "@/components/admin/workspace-setting-hints";
import { CreateWorkspaceBody } from "@/lib/workspaces/schemas";
import { createWorkspaceAction } from "@/app/(admin)/orgs/[orgId]/workspaces/actions";

export function NewWorkspaceForm({ orgId }: { orgId: string }) {
  const router = useRouter();
  const form = useForm({
    resolver: zodResolver(CreateWorkspaceBody),
    defaultValues: { name: "", slug: "", knowledgeGraphEnabled: false, toolWhitelistsEnabled: false },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createWorkspaceAction(orgId, values);
    if (applyResult(result, { form, success: `Workspace "${values.name}" created` })) router.push(`/w/${result.data.id}/servers`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <NameSlugFields form={form} idPrefix="workspace" autoSlug />
      <SwitchField control={form.control} name="knowledgeGraphEnabled" id="workspace-kg" label="Knowledge graph" hint={KNOWLEDGE_GRAPH_HINT} />
      <SwitchField control={form.control} name="toolWhitelistsEnabled" id="workspace-whitelists" label="Tool whitelists" hint={TOOL_WHITELISTS_HINT} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Creating…" : "Create workspace"}
        </Button>
      </div>
    </form>
  );
}
