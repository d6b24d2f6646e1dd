"use client";

import { ChevronDown, ChevronRight, Trash2 } from "lucide-react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { errorAt } from "@/components/forms/form-alert";
import { JsonEditor } from "@/components/editors/json-editor";
import type { ToolDraftInput } from "@/components/connectors/connector-form-model";
import { ToolShapeFields } from "@/components/connectors/tool-shape-fields";
import { TOOL_TITLE_MAX_LENGTH } from "@/lib/connectors/schemas";

type ToolsForm = { tools: ToolDraftInput[] };
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface Props {
  index: number;
  expanded: boolean;
  onToggle: () => void;
  onRemove: () => void;
}

/** One http tool: a summary line (name and title), and when expanded its name, title, description, mapping, annotations, answer selection and input schema. */
export function ToolEditorCard({ index: i, expanded, onToggle, onRemove }: Props) {
  const form = useFormContext<ToolsForm>();
  const tool = useWatch({ control: form.control, name: `tools.${i}` });
  const hasErrors = Boolean(form.formState.errors.tools?.[i]);
  const prefix = `tool-${i}`;
  const title = tool?.name || `Tool ${i + 1}`;
  return (
    <li className="rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      {/* Sized by the card, never by its one-line summary: a long title or path is cut short
          (truncate) instead of widening the list, and with it a phone's whole page. */}
      <div className="flex flex-wrap items-center gap-2 p-3 [contain:inline-size]">
        <Button type="button" variant="ghost" size="sm" aria-expanded={expanded} aria-controls={`${prefix}-body`} onClick={onToggle} className="min-w-0 flex-1 justify-start">
          {expanded ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          <span className="truncate font-medium">{title}</span>
          {tool?.title && <span className="truncate text-zinc-600 dark:text-zinc-400">{tool.title}</span>}
          <Badge className="font-mono">{tool?.method}</Badge>
          <span className="truncate font-mono text-xs">{tool?.path}</span>
        </Button>
        {hasErrors && <Badge tone="danger">Has errors</Badge>}
        <Button type="button" variant="ghost" size="sm" aria-label={`Remove ${title}`} onClick={onRemove}>
          <Trash2 aria-hidden />
          Remove
        </Button>
      </div>
      {expanded && (
        <div id={`${prefix}-body`} className="grid gap-4 border-t border-zinc-200 p-4 dark:border-zinc-800">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={`${prefix}-name`} label="Tool name" hint="What MCP clients call it: letters, digits, _ . -" error={errorAt(form, `tools.${i}.name`)}>
              {(control) => <Input {...control} {...form.register(`tools.${i}.name`)} maxLength={64} className="font-mono" autoComplete="off" />}
            </Field>
            <div className="grid grid-cols-[8rem_1fr] gap-2">
              <Field id={`${prefix}-method`} label="Method" error={errorAt(form, `tools.${i}.method`)}>
                {(control) => (
                  <Select {...control} {...form.register(`tools.${i}.method`)}>
                    {METHODS.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field id={`${prefix}-path`} label="Path" hint="{name} takes that argument" error={errorAt(form, `tools.${i}.path`)}>
                {(control) => <Input {...control} {...form.register(`tools.${i}.path`)} maxLength={2048} className="font-mono" autoComplete="off" placeholder="/customers/{id}" />}
              </Field>
            </div>
          </div>
          <Field id={`${prefix}-title`} label="Title" hint="A short name people see in MCP clients; optional." error={errorAt(form, `tools.${i}.title`)}>
            {(control) => <Input {...control} {...form.register(`tools.${i}.title`)} maxLength={TOOL_TITLE_MAX_LENGTH} autoComplete="off" />}
          </Field>
          <Field id={`${prefix}-description`} label="Description" hint="Tells the model when and how to use the tool." error={errorAt(form, `tools.${i}.description`)}>
            {(control) => <Textarea {...control} {...form.register(`tools.${i}.description`)} rows={3} />}
          </Field>
          <ToolShapeFields index={i} prefix={prefix} />
          <Controller
            control={form.control}
            name={`tools.${i}.inputSchemaText`}
            render={({ field, fieldState }) => (
              <div className="grid gap-1.5">
                <Label id={`${prefix}-schema-label`} asChild>
                  <span>Input schema (JSON Schema)</span>
                </Label>
                <JsonEditor
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  labelledBy={`${prefix}-schema-label`}
                  describedBy={`${prefix}-schema-hint${fieldState.error ? ` ${prefix}-schema-error` : ""}`}
                  invalid={Boolean(fieldState.error)}
                  minHeight="8rem"
                />
                <p id={`${prefix}-schema-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
                  An object schema. Arguments not used in the path go to the query string (GET, DELETE) or the JSON body.
                </p>
                {fieldState.error && (
                  <p id={`${prefix}-schema-error`} className="text-sm text-red-700 dark:text-red-400">
                    {describeSchemaError(form, i) ?? fieldState.error.message}
                  </p>
                )}
              </div>
            )}
          />
        </div>
      )}
    </li>
  );
}

/** Errors of the parsed schema land below `inputSchemaText` (e.g. `.type`); show the first. */
function describeSchemaError(form: ReturnType<typeof useFormContext<ToolsForm>>, i: number): string | undefined {
  const node = form.formState.errors.tools?.[i]?.inputSchemaText as unknown;
  if (!node || typeof node !== "object") return undefined;
  if (typeof (node as { message?: unknown }).message === "string") return (node as { message: string }).message;
  for (const value of Object.values(node)) {
    const message = (value as { message?: unknown } | undefined)?.message;
    if (typeof message === "string") return message;
  }
  return undefined;
}
