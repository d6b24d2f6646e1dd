"use client";

import type { ComponentProps } from "react";
import { Controller, type FieldPathByValue, type FieldValues, type UseFormReturn } from "react-hook-form";
import { MarkdownEditor } from "@/components/editors/markdown-editor";
import { errorAt } from "@/components/forms/form-alert";

type EditorProps = Omit<ComponentProps<typeof MarkdownEditor>, "value" | "onChange" | "onBlur" | "error">;

/** A MarkdownEditor bound to a string field of a react-hook-form form, showing that field's error. */
export function MarkdownField<F extends FieldValues, C, T>({ form, name, ...editor }: EditorProps & { form: UseFormReturn<F, C, T>; name: FieldPathByValue<F, string> }) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => <MarkdownEditor {...editor} value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={errorAt(form, name)} />}
    />
  );
}
