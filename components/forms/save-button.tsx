"use client";

import type { ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";

/** An edit form's submit button: enabled once something changed, "Saving…" while it submits. */
export function SaveButton<F extends FieldValues, C, T>({ form, children = "Save" }: { form: UseFormReturn<F, C, T>; children?: ReactNode }) {
  const { isSubmitting, isDirty } = form.formState;
  return (
    <div>
      <Button type="submit" disabled={isSubmitting || !isDirty}>
        {isSubmitting ? "Saving…" : children}
      </Button>
    </div>
  );
}
