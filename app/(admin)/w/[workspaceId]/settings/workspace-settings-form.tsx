"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { DeleteButton } from "@/components/forms/delete-button";
import { SaveButton } from "@/components/forms/save-button";
import { useObjectVersion } from "@/components/forms/use-object-version";
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

/** `version`: the workspace's ETag as the page loaded it. */
export function WorkspaceSettingsForm({ workspace, version: loaded }: { workspace: WorkspaceSettings; version: string }) {
  const version = useObjectVersion(`workspace:${workspace.id}`, loaded);
  const { id, ...defaults } = workspace;
  const form = useForm({ resolver: zodResolver(UpdateWorkspaceBody), defaultValues: defaults });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateWorkspaceAction(id, values, version.current());
    version.track(result);
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
      <SaveButton form={form} />
    </form>
  );
}

export function DeleteWorkspaceButton({ workspace, version: loaded }: { workspace: { id: string; name: string; orgId: string }; version: string }) {
  const version = useObjectVersion(`workspace:${workspace.id}`, loaded);
  return (
    <DeleteButton
      label="Delete workspace"
      name={workspace.name}
      description="Its MCP servers stop answering and its API keys stop working at once. This cannot be undone."
      success={`Workspace "${workspace.name}" deleted`}
      action={() => deleteWorkspaceAction(workspace.id, version.current())}
      redirectTo={`/orgs/${workspace.orgId}/workspaces`}
    />
  );
}
