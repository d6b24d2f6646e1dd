"use client";

import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import type { ActionResult } from "@/components/forms/action-result";

/**
 * Shows an action's outcome: a success toast, or the server's field errors at their fields
 * (same dotted paths as the form's), the message as the form's root error and an error toast.
 * Returns true on success.
 */
export function applyResult<T, F extends FieldValues, C = unknown, V = F>(
  result: ActionResult<T>,
  opts: { form?: UseFormReturn<F, C, V>; success?: string; mapPath?: (apiPath: string) => string } = {},
): result is { ok: true; data: T } {
  if (result.ok) {
    if (opts.success) toast.success(opts.success);
    return true;
  }
  const { form } = opts;
  const mapPath = opts.mapPath ?? ((path: string) => path);
  const fieldErrors = Object.entries(result.fieldErrors ?? {}).map(([path, message]): [string, string] => [mapPath(path), message]);
  if (form) {
    for (const [path, message] of fieldErrors) form.setError(path as Path<F>, { type: "server", message });
    form.setError("root.server" as Path<F>, { type: "server", message: describe(result.error, fieldErrors) });
  }
  toast.error(result.error);
  return false;
}

/** The message plus each field problem, so errors at fields the form does not show still surface. */
function describe(message: string, fieldErrors: [string, string][]): string {
  if (fieldErrors.length === 0) return message;
  return `${message} ${fieldErrors.map(([path, m]) => `${path}: ${m}`).join(" · ")}`;
}
