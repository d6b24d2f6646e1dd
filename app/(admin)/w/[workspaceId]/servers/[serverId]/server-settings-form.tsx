"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { MarkdownEditor } from "@/components/editors/markdown-editor";
import { Markdown, Name } from "@/lib/schemas/common";
import { deleteServerAction, updateServerAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";

const SettingsSchema = z.object({ name: Name, instructions: Markdown });

export function ServerSettingsForm({ server }: { server: { id: string; name: string; instructions: string } }) {
  const form = useForm({ resolver: zodResolver(SettingsSchema), defaultValues: { name: server.name, instructions: server.instructions } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateServerAction(server.id, { name: values.name, instructions: values.instructions.trim() ? values.instructions : null });
    if (applyResult(result, { form, success: "Server saved" })) form.reset({ name: result.data.name, instructions: result.data.instructions ?? "" });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="server-name" label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} autoComplete="off" />}
      </Field>
      <Controller
        control={form.control}
        name="instructions"
        render={({ field }) => (
          <MarkdownEditor id="server-instructions" label="Instructions (markdown)" value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={errorAt(form, "instructions")} />
        )}
      />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

export function DeleteServerButton({ server }: { server: { id: string; name: string; workspaceId: string } }) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete server
        </Button>
      }
      title={`Delete ${server.name}?`}
      description="MCP clients using its URL get 404 from now on. API keys pinned to it are deleted. This cannot be undone."
      confirmLabel="Delete server"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        if (!applyResult(await deleteServerAction(server.id), { success: `Server "${server.name}" deleted` })) return false;
        router.push(`/w/${server.workspaceId}/servers`);
        router.refresh();
      }}
    />
  );
}
