"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { MarkdownEditor } from "@/components/editors/markdown-editor";
import { Markdown } from "@/lib/schemas/common";
import { updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const InstructionsSchema = z.object({ instructions: Markdown });

/** The connector's own instructions: a section of each server's initialize instructions and its own resource. */
export function InstructionsForm({ connectorId, instructions }: { connectorId: string; instructions: string }) {
  const form = useForm({ resolver: zodResolver(InstructionsSchema), defaultValues: { instructions } });
  const onSubmit = form.handleSubmit(async (values) => {
    const text = values.instructions.trim() ? values.instructions : null;
    const result = await updateConnectorAction(connectorId, { instructions: text });
    if (applyResult(result, { form, success: "Instructions saved" })) form.reset({ instructions: result.data.instructions ?? "" });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Controller
        control={form.control}
        name="instructions"
        render={({ field }) => (
          <MarkdownEditor
            id="connector-instructions"
            label="Instructions (markdown)"
            hint="Callers who can use at least one of this connector's tools get this text: as a section of the server's instructions and as the anythingmcp://server/<id>/connector/<connectorId>/instructions resource."
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorAt(form, "instructions")}
            minHeight="18rem"
          />
        )}
      />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save instructions"}
        </Button>
      </div>
    </form>
  );
}
