"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { MarkdownEditor } from "@/components/editors/markdown-editor";
import { SwitchField } from "@/components/admin/switch-field";
import { CreateSkillBody } from "@/lib/skills/schemas";
import { createSkillAction, deleteSkillAction, updateSkillAction } from "@/app/(admin)/w/[workspaceId]/skills/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

/** The API's body; the scope select uses "" for "the whole workspace" (null). */
const SkillForm = CreateSkillBody.extend({ connectorId: z.string(), applied: z.boolean() });
type SkillFormValues = z.input<typeof SkillForm>;

interface Props {
  workspaceId: string;
  connectors: { id: string; name: string }[];
  skill?: { id: string; name: string; content: string; connectorId: string | null; applied: boolean };
  /** The edited skill's ETag as the page loaded it. */
  version?: string;
}

/** Create (no `skill`) or edit a skill: name, scope, applied, and markdown content with preview. */
export function SkillEditor({ workspaceId, connectors, skill, version: loaded }: Props) {
  const router = useRouter();
  const version = useObjectVersion(`skill:${skill?.id ?? "new"}`, loaded ?? "");
  const defaults: SkillFormValues = { name: skill?.name ?? "", content: skill?.content ?? "", connectorId: skill?.connectorId ?? "", applied: skill?.applied ?? true };
  const form = useForm({ resolver: zodResolver(SkillForm), defaultValues: defaults });
  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, connectorId: values.connectorId || null };
    const result = skill ? await updateSkillAction(skill.id, body, version.current()) : await createSkillAction(workspaceId, body);
    version.track(result);
    if (!applyResult(result, { form, success: skill ? "Skill saved" : `Skill "${values.name}" created` })) return;
    if (skill) form.reset({ ...values });
    else router.push(`/w/${workspaceId}/skills`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-6" noValidate>
      <FormAlert form={form} />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="skill-name" label="Name" error={errorAt(form, "name")}>
              {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" placeholder="Refunds" />}
            </Field>
            <Field id="skill-scope" label="Scope" hint="A connector-scoped skill reaches only callers who can use that connector." error={errorAt(form, "connectorId")}>
              {(control) => (
                <Select {...control} {...form.register("connectorId")}>
                  <option value="">The whole workspace</option>
                  {connectors.map((c) => (
                    <option key={c.id} value={c.id}>
                      Connector: {c.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <SwitchField control={form.control} name="applied" id="skill-applied" label="Applied" hint="Applied skills are part of the MCP servers' initialize instructions." />
          <Controller
            control={form.control}
            name="content"
            render={({ field }) => (
              <MarkdownEditor id="skill-content" label="Content (markdown)" value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={errorAt(form, "content")} minHeight="16rem" />
            )}
          />
        </CardContent>
      </Card>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={form.formState.isSubmitting || (skill !== undefined && !form.formState.isDirty)}>
          {form.formState.isSubmitting ? "Saving…" : skill ? "Save skill" : "Create skill"}
        </Button>
        {skill && (
          <ConfirmDialog
            trigger={
              <Button type="button" variant="ghost" className="ml-auto">
                <Trash2 aria-hidden />
                Delete skill
              </Button>
            }
            title={`Delete ${skill.name}?`}
            description="It leaves the instructions of this workspace's MCP servers on their next request. This cannot be undone."
            confirmLabel="Delete skill"
            pendingLabel="Deleting…"
            onConfirm={async () => {
              if (!applyResult(await deleteSkillAction(skill.id, version.current()), { success: `Skill "${skill.name}" deleted` })) return false;
              router.push(`/w/${workspaceId}/skills`);
              router.refresh();
            }}
          />
        )}
      </div>
    </form>
  );
}
