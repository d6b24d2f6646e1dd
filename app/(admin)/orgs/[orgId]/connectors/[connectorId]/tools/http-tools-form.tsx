"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { FormProvider, useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { ToolListEditor } from "@/components/connectors/tool-list-editor";
import { ToolDrafts, type ToolDraftInput, draftToTool, formPathOf, toolToDraft } from "@/components/connectors/connector-form-model";
import { importOpenApiAction, updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const ToolsForm = z.object({ tools: ToolDrafts });

/** The tools of an http connector; saving replaces the whole set (PATCH `tools`). */
/** `version`: the connector's ETag as the page loaded it; a save over a newer tool set is refused. */
export function HttpToolsForm({ orgId, connectorId, tools, version: loaded }: { orgId: string; connectorId: string; tools: ToolDraftInput[]; version: string }) {
  const version = useObjectVersion(`connector:${connectorId}`, loaded);
  const form = useForm<z.input<typeof ToolsForm>, unknown, z.output<typeof ToolsForm>>({ resolver: zodResolver(ToolsForm), defaultValues: { tools } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateConnectorAction(connectorId, { tools: values.tools.map(draftToTool) }, version.current());
    version.track(result);
    if (applyResult(result, { form, success: `Tools saved (${values.tools.length})`, mapPath: formPathOf })) {
      form.reset({ tools: result.data.tools.map(toolToDraft) });
    }
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormAlert form={form} />
        <ToolListEditor readDocument={(text) => importOpenApiAction(orgId, text)} />
        <div className="sticky bottom-0 flex items-center gap-3 border-t border-zinc-200 bg-zinc-50/95 py-3 dark:border-zinc-800 dark:bg-zinc-950/95">
          <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
            {form.formState.isSubmitting ? "Saving…" : "Save tools"}
          </Button>
          {form.formState.isDirty && <span className="text-sm text-zinc-600 dark:text-zinc-400">Unsaved changes</span>}
        </div>
      </form>
    </FormProvider>
  );
}
