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
import { SwitchField } from "@/components/admin/switch-field";
import { KNOWLEDGE_GRAPH_HINT, TOOL_WHITELISTS_HINT } from "@/components/admin/workspace-setting-hints";
import { UpdateWorkspaceBody } from "@/lib/workspaces/schemas";
import { deleteWorkspaceAction, updateWorkspaceAction } from "@/app/(admin)/w/[workspaceId]/settings/actions";

interface WorkspaceSettings {
  id: string;
  name: string;
  slug: string;
  knowledgeGraphEnabled: boolean;
  toolWhitelistsEnabled: boolean;
}

export function WorkspaceSettingsForm({ workspace }: { workspace: WorkspaceSettings }) {
  const { id, ...defaults } = workspace;
  const form = useForm({ resolver: zodResolver(UpdateWorkspaceBody), defaultValues: defaults });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateWorkspaceAction(id, values);
    if (applyResult(result, { form, success: "Workspace saved" })) {
      const { name, slug, knowledgeGraphEnabled, toolWhitelistsEnabled } = result.data;
      form.reset({ name, slug, knowledgeGraphEnabled, toolWhitelistsEnabled });
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <NameSlugFields form={form} idPrefix="workspace" autoSlug={false} />
      <SwitchField control={form.control} name="knowledgeGraphEnabled" id="workspace-kg" label="Knowledge graph" hint={KNOWLEDGE_GRAPH_HINT} />
      <SwitchField control={form.control} name="toolWhitelistsEnabled" id="workspace-whitelists" label="Tool whitelists" hint={TOOL_WHITELISTS_HINT} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

export function DeleteWorkspaceButton({ workspace }: { workspace: { id: string; name: string; orgId: string } }) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete workspace
        </Button>
      }
      title={`Delete ${workspace.name}?`}
      description="Its MCP servers stop answering and its API keys stop working at once. This cannot be undone."
      confirmLabel="Delete workspace"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        if (!applyResult(await deleteWorkspaceAction(workspace.id), { success: `Workspace "${workspace.name}" deleted` })) return false;
        router.push(`/orgs/${workspace.orgId}/workspaces`);
        router.refresh(); // the navigation lists it too
      }}
    />
  );
}
