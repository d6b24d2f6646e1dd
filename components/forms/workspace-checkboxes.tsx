"use client";

import type { UseFormRegisterReturn } from "react-hook-form";

/**
 * "An invitation names the org role and the workspaces to join": one native checkbox per
 * workspace of the organization, registered as one react-hook-form array field.
 */
export function WorkspaceCheckboxes({ idPrefix, workspaces, register }: { idPrefix: string; workspaces: { id: string; name: string }[]; register: UseFormRegisterReturn }) {
  if (workspaces.length === 0) return null;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Workspaces to join</legend>
      {workspaces.map((w) => (
        <label key={w.id} htmlFor={`${idPrefix}-${w.id}`} className="flex min-w-0 items-center gap-2 text-sm">
          <input id={`${idPrefix}-${w.id}`} type="checkbox" value={w.id} {...register} className="size-4 shrink-0 accent-zinc-900 dark:accent-sky-400" />
          <span className="truncate" title={w.name}>{w.name}</span>
        </label>
      ))}
    </fieldset>
  );
}
