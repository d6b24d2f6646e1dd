"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { MarkdownField } from "@/components/forms/markdown-field";
import { SaveButton } from "@/components/forms/save-button";
import { Markdown } from "@/lib/schemas/common";
import { updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const InstructionsSchema = z.object({ instructions: Markdown });

/** The connector's own instructions: a section of each server's initialize instructions and its own resource. */
export function InstructionsForm({ connectorId, instructions, version: loaded }: { connectorId: string; instructions: string; version: string }) {
  const version = useObjectVersion(`connector:${connectorId}`, loaded);
  const form = useForm({ resolver: zodResolver(InstructionsSchema), defaultValues: { instructions } });
  const onSubmit = form.handleSubmit(async (values) => {
    const text = values.instructions.trim() ? values.instructions : null;
    const result = await updateConnectorAction(connectorId, { instructions: text }, version.current());
    version.track(result);
    if (applyResult(result, { form, success: "Instructions saved" })) form.reset({ instructions: result.data.instructions ?? "" });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <MarkdownField
        form={form}
        name="instructions"
        id="connector-instructions"
        label="Instructions (markdown)"
        hint="Callers who can use at least one of this connector's tools get this text: as a section of the server's instructions and as the anythingmcp://server/<id>/connector/<connectorId>/instructions resource."
        minHeight="18rem"
      />
      <SaveButton form={form}>Save instructions</SaveButton>
    </form>
  );
}
