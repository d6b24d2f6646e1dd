"use client";

import { Lock, Users } from "lucide-react";
import { useId } from "react";
import type { Visibility } from "@/components/files/files-api";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

const OPTIONS: { value: Visibility; label: string; hint: string; icon: typeof Lock }[] = [
  { value: "private", label: "Private", hint: "Only you (and tools running for you)", icon: Lock },
  { value: "workspace", label: "Workspace", hint: "Everyone in the workspace", icon: Users },
];

/** Who can see a file: two radio buttons in a fieldset (arrow keys move between them). */
export function VisibilityField({ value, onChange, legend = "Who can see it" }: { value: Visibility; onChange: (value: Visibility) => void; legend?: string }) {
  const name = useId();
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {OPTIONS.map((option) => (
          <label
            key={option.value}
            className={cn(
              "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm",
              "border-zinc-300 has-[:checked]:border-sky-600 has-[:checked]:bg-sky-50 dark:border-zinc-700 dark:has-[:checked]:border-sky-400 dark:has-[:checked]:bg-sky-950/40",
              "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 dark:has-[:focus-visible]:ring-sky-400",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className={cn("mt-0.5 accent-sky-600", focusRing)}
            />
            <span className="grid">
              <span className="flex items-center gap-1.5 font-medium">
                <option.icon aria-hidden className="size-3.5" />
                {option.label}
              </span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{option.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
