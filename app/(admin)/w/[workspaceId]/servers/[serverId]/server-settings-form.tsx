"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { DeleteButton } from "@/components/forms/delete-button";
import { MarkdownField } from "@/components/forms/markdown-field";
import { SaveButton } from "@/components/forms/save-button";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { Markdown, Name } from "@/lib/schemas/common";
import { deleteServerAction, updateServerAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

const SettingsSchema = z.object({ name: Name, instructions: Markdown });

/** `version`: the server's ETag as the page loaded it, shared with the page's other server forms. */
export function ServerSettingsForm({ server, version: loaded }: { server: { id: string; name: string; instructions: string }; version: string }) {
  const version = useObjectVersion(`server:${server.id}`, loaded);
  const form = useForm({ resolver: zodResolver(SettingsSchema), defaultValues: { name: server.name, instructions: server.instructions } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateServerAction(server.id, { name: values.name, instructions: values.instructions.trim() ? values.instructions : null }, version.current());
    version.track(result);
    if (applyResult(result, { form, success: "Server saved" })) form.reset({ name: result.data.name, instructions: result.data.instructions ?? "" });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="server-name" label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
      </Field>
      <MarkdownField form={form} name="instructions" id="server-instructions" label="Instructions (markdown)" />
      <SaveButton form={form} />
    </form>
  );
}

export function DeleteServerButton({ server, version: loaded }: { server: { id: string; name: string; workspaceId: string }; version: string }) {
  const version = useObjectVersion(`server:${server.id}`, loaded);
  return (
    <DeleteButton
      label="Delete server"
      name={server.name}
      description="MCP clients using its URL get 404 from now on. API keys pinned to it are deleted. This cannot be undone."
      success={`Server "${server.name}" deleted`}
      action={() => deleteServerAction(server.id, version.current())}
      redirectTo={`/w/${server.workspaceId}/servers`}
    />
  );
}
