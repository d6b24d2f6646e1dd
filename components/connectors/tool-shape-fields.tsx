"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorAt } from "@/components/forms/form-alert";
import type { ToolDraftInput } from "@/components/connectors/connector-form-model";
import { defaultHttpAnnotations, type ToolAnnotations } from "@/lib/connectors/tool-fields";
import { HINTS } from "@/lib/servers/tool-curation-model";

type ToolsForm = { tools: ToolDraftInput[] };

/**
 * What an http tool says it does and how its answer is shaped (issue 26 points 3 and 4): its
 * annotations — the method's defaults unless replaced here — and a JMESPath selection of its
 * JSON answer. An imported output schema is kept as it is and said so.
 */
export function ToolShapeFields({ index: i, prefix }: { index: number; prefix: string }) {
  const form = useFormContext<ToolsForm>();
  const method = useWatch({ control: form.control, name: `tools.${i}.method` }) ?? "GET";
  const hasOutputSchema = useWatch({ control: form.control, name: `tools.${i}.outputSchema` }) != null;
  return (
    <>
      <Controller
        control={form.control}
        name={`tools.${i}.annotations`}
        render={({ field }) => {
          const own = field.value as ToolAnnotations | null | undefined;
          const shown = own ?? defaultHttpAnnotations(method);
          return (
            <fieldset className="grid gap-1.5">
              <legend className="text-sm font-medium">What the tool does (annotations)</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={!!own} onChange={(e) => field.onChange(e.target.checked ? { ...defaultHttpAnnotations(method) } : null)} />
                Replace the defaults of the {method} method with these
              </label>
              {HINTS.map(([hint, label]) => (
                <label key={hint} className="flex items-center gap-2 pl-6 text-sm">
                  <input type="checkbox" disabled={!own} checked={shown[hint] === true} onChange={(e) => field.onChange({ ...own, [hint]: e.target.checked })} />
                  {label}
                </label>
              ))}
            </fieldset>
          );
        }}
      />
      <Field
        id={`${prefix}-select`}
        label="Answer selection (JMESPath)"
        hint={`Applied to the JSON answer before the model sees it, e.g. items[].{id: id, name: name}; preview one in Try a tool. Empty: the answer as received.${hasOutputSchema ? " The output schema from the import describes the whole answer: remove the selection or the schema if they no longer match." : ""}`}
        error={errorAt(form, `tools.${i}.select`)}
      >
        {(control) => <Input {...control} {...form.register(`tools.${i}.select`)} maxLength={2000} className="font-mono" autoComplete="off" spellCheck={false} />}
      </Field>
    </>
  );
}
