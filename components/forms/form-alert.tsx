"use client";

import type { FieldValues, UseFormReturn } from "react-hook-form";
import { Alert } from "@/components/ui/alert";

/** The server's message for the whole form (set by applyResult), announced as it appears. */
export function FormAlert<F extends FieldValues, C, T>({ form }: { form: UseFormReturn<F, C, T> }) {
  const root = form.formState.errors.root as { server?: { message?: string } } | undefined;
  const message = root?.server?.message;
  return message ? <Alert>{message}</Alert> : null;
}

/** The error message at a dotted path of the form, if any. */
export function errorAt<F extends FieldValues, C, T>(form: UseFormReturn<F, C, T>, path: string): string | undefined {
  let node: unknown = form.formState.errors;
  for (const key of path.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}
