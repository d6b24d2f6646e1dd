"use client";

import type { ReactNode } from "react";
import { Controller, type Control, type FieldValues, type Path } from "react-hook-form";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";

/** An on/off setting bound to a boolean form field, with its label and an explanation. */
export function SwitchField<F extends FieldValues>({ control, name, id, label, hint }: { control: Control<F>; name: Path<F>; id: string; label: string; hint: ReactNode }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-start gap-3">
          <Switch
            id={id}
            checked={Boolean(field.value)}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            aria-describedby={`${id}-hint`}
          />
          <div className="grid gap-0.5">
            <Label htmlFor={id}>{label}</Label>
            <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
              {hint}
            </p>
          </div>
        </div>
      )}
    />
  );
}
