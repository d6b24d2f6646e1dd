"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { SaveButton } from "@/components/forms/save-button";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { plural } from "@/components/ui/plural";
import { updateOrgAction } from "@/app/(admin)/orgs/actions";

/** The API's bounds for `auditRetentionDays` (1–36500), said the way a person types them. */
const MAX_DAYS = 36500;
const RetentionInput = z.object({
  days: z
    .string()
    .trim()
    .refine((v) => v === "" || /^\d+$/.test(v), "Enter a whole number of days, such as 90, or leave it empty to keep every event.")
    .refine((v) => v === "" || (Number(v) >= 1 && Number(v) <= MAX_DAYS), `Choose from 1 to ${MAX_DAYS} days (100 years), or leave it empty to keep every event.`),
});
type RetentionInput = z.infer<typeof RetentionInput>;

function daysText(days: number | null): string {
  return days === null ? "" : String(days);
}

/** What the organization keeps today, in the words the form uses. */
export function retentionSummary(days: number | null, pruneEvery: string): string {
  if (days === null) return "Every audit event is kept; none is ever deleted.";
  return `Audit events are kept for ${plural(days, "day")}; older ones are deleted ${pruneEvery}.`;
}

/**
 * How long the organization keeps audit events: owners choose, admins read the choice.
 * `version`: the organization's ETag as the page loaded it, shared with the page's other forms;
 * `pruneEvery`: how often the prune pass runs ("every hour").
 */
export function AuditRetentionForm({
  org,
  version: loaded,
  canChange,
  pruneEvery,
}: {
  org: { id: string; auditRetentionDays: number | null };
  version: string;
  canChange: boolean;
  pruneEvery: string;
}) {
  const version = useObjectVersion(`org:${org.id}`, loaded);
  const form = useForm<RetentionInput>({ resolver: zodResolver(RetentionInput), defaultValues: { days: daysText(org.auditRetentionDays) } });
  const onSubmit = form.handleSubmit(async ({ days }) => {
    const result = await updateOrgAction(org.id, { auditRetentionDays: days === "" ? null : Number(days) }, version.current());
    version.track(result);
    const mapPath = (path: string) => (path === "auditRetentionDays" ? "days" : path);
    if (applyResult(result, { form, success: "Audit retention saved", mapPath })) form.reset({ days: daysText(result.data.auditRetentionDays) });
  });
  if (!canChange) {
    return (
      <div className="grid gap-1 text-sm">
        <p>{retentionSummary(org.auditRetentionDays, pruneEvery)}</p>
        <p className="text-zinc-600 dark:text-zinc-400">Only an owner of the organization can change this.</p>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field
        id="org-audit-retention"
        label="Days to keep audit events"
        hint={`Keep audit events for this many days; older ones are deleted ${pruneEvery}. Leave empty to keep every event.`}
        error={errorAt(form, "days")}
      >
        {(control) => (
          // The value is in the server-rendered HTML too, before the form library takes over.
          <Input {...control} {...form.register("days")} defaultValue={daysText(org.auditRetentionDays)} inputMode="numeric" maxLength={5} autoComplete="off" placeholder="Keep every event" className="max-w-48" />
        )}
      </Field>
      <SaveButton form={form} />
    </form>
  );
}
