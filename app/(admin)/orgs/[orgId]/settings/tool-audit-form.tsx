"use client";

import { useForm } from "react-hook-form";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { SaveButton } from "@/components/forms/save-button";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { RadioCard } from "@/components/ui/radio-card";
import type { ToolAuditDetail } from "@/lib/orgs/schemas";
import { updateOrgAction } from "@/app/(admin)/orgs/actions";

/** Each choice with what it means for who can read what (every org admin reads the audit log). */
const CHOICES: { value: ToolAuditDetail; label: string; implies: string }[] = [
  {
    value: "metadata",
    label: "Metadata only (recommended)",
    implies:
      "Admins see who called which tool, when, how it ended, and the size and fingerprint of what was sent and returned — never the content. A member's private file read through a tool stays private.",
  },
  {
    value: "arguments",
    label: "Metadata and arguments",
    implies:
      "Admins also read what each caller sent to the tool (values under secret-looking names hidden). Arguments can hold search terms or text members typed; tool results stay unrecorded.",
  },
  {
    value: "arguments_and_results",
    label: "Metadata, arguments and results",
    implies:
      "Admins also read what each tool returned — including text of members' private files a tool read for them, which they cannot open themselves. Each is cut at 16 KB.",
  },
];

/**
 * What tool.call audit events keep: owners choose, admins see the choice. `version`: the
 * organization's ETag as the page loaded it, shared with the page's other forms of the org.
 */
export function ToolAuditForm({ org, version: loaded, canChange }: { org: { id: string; toolAuditDetail: ToolAuditDetail }; version: string; canChange: boolean }) {
  const version = useObjectVersion(`org:${org.id}`, loaded);
  const form = useForm({ defaultValues: { toolAuditDetail: org.toolAuditDetail } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateOrgAction(org.id, values, version.current());
    version.track(result);
    if (applyResult(result, { form, success: "Tool audit setting saved" })) form.reset({ toolAuditDetail: result.data.toolAuditDetail });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <fieldset className="grid gap-2" disabled={!canChange}>
        <legend className="sr-only">What tool call events keep</legend>
        {CHOICES.map((choice) => (
          <RadioCard
            key={choice.value}
            value={choice.value}
            // Checked in the server-rendered HTML too, before the form library takes over.
            defaultChecked={choice.value === org.toolAuditDetail}
            {...form.register("toolAuditDetail")}
          >
            <span className="grid gap-0.5">
              <span className="font-medium">{choice.label}</span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{choice.implies}</span>
            </span>
          </RadioCard>
        ))}
      </fieldset>
      {canChange ? <SaveButton form={form} /> : <p className="text-sm text-zinc-600 dark:text-zinc-400">Only an owner of the organization can change this.</p>}
    </form>
  );
}
