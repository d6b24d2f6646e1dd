"use client";

import { Lock, Users } from "lucide-react";
import { useId } from "react";
import type { Visibility } from "@/components/files/files-api";
import { RadioCard, RadioCardGroup } from "@/components/ui/radio-card";

const OPTIONS: { value: Visibility; label: string; hint: string; icon: typeof Lock }[] = [
  { value: "private", label: "Private", hint: "Only you (and tools running for you)", icon: Lock },
  { value: "workspace", label: "Workspace", hint: "Everyone in the workspace", icon: Users },
];

/** Who can see a file: two radio buttons in a fieldset (arrow keys move between them). */
export function VisibilityField({ value, onChange, legend = "Who can see it" }: { value: Visibility; onChange: (value: Visibility) => void; legend?: string }) {
  const name = useId();
  return (
    <RadioCardGroup legend={legend} className="sm:grid-cols-2">
      {OPTIONS.map((option) => (
        <RadioCard key={option.value} name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)}>
          <span className="grid">
            <span className="flex items-center gap-1.5 font-medium">
              <option.icon aria-hidden className="size-3.5" />
              {option.label}
            </span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{option.hint}</span>
          </span>
        </RadioCard>
      ))}
    </RadioCardGroup>
  );
}
