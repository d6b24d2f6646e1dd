"use client";

import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { errorAt } from "@/components/forms/form-alert";
import type { HeaderRowInput } from "@/components/connectors/connector-form-model";

type HeadersForm = { headers: HeaderRowInput[] };

/**
 * Secret request headers as name/value rows (values are typed, never shown back: the API
 * stores them encrypted and returns only their names). Lives inside a FormProvider.
 */
export function SecretHeadersEditor({ idPrefix, legend = "Secret headers" }: { idPrefix: string; legend?: string }) {
  const form = useFormContext<HeadersForm>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "headers" });
  const rootError = errorAt(form, "headers") ?? errorAt(form, "headers.root");
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Sent with every request to the upstream (e.g. <code className="font-mono">Authorization</code>). Stored encrypted; nobody can read them back.
      </p>
      {fields.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-400">No headers.</p>}
      {fields.map((field, i) => {
        const nameError = errorAt(form, `headers.${i}.name`);
        const valueError = errorAt(form, `headers.${i}.value`);
        return (
          <div key={field.id} className="grid gap-1">
            <div className="grid grid-cols-[1fr_1fr_auto] items-center gap-2">
              <Input
                aria-label={`Header ${i + 1} name`}
                placeholder="Authorization"
                autoComplete="off"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${idPrefix}-h${i}-name-error` : undefined}
                className="font-mono"
                {...form.register(`headers.${i}.name`)}
              />
              <Input
                aria-label={`Header ${i + 1} value`}
                placeholder="Bearer …"
                type="password"
                autoComplete="new-password"
                aria-invalid={valueError ? true : undefined}
                aria-describedby={valueError ? `${idPrefix}-h${i}-value-error` : undefined}
                {...form.register(`headers.${i}.value`)}
              />
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove header ${i + 1}`} onClick={() => remove(i)}>
                <Trash2 aria-hidden />
              </Button>
            </div>
            {nameError && (
              <p id={`${idPrefix}-h${i}-name-error`} className="text-sm text-red-700 dark:text-red-400">
                {nameError}
              </p>
            )}
            {valueError && (
              <p id={`${idPrefix}-h${i}-value-error`} className="text-sm text-red-700 dark:text-red-400">
                {valueError}
              </p>
            )}
          </div>
        );
      })}
      {rootError && <p className="text-sm text-red-700 dark:text-red-400">{rootError}</p>}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => append({ name: "", value: "" })}>
          <Plus aria-hidden />
          Add header
        </Button>
      </div>
    </fieldset>
  );
}
