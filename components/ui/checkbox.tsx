"use client";

import { Check, Minus } from "lucide-react";
import { Checkbox as CheckboxPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

/** A tri-state checkbox (`checked="indeterminate"` for "some selected"). */
export function Checkbox({ className, ...props }: ComponentProps<typeof CheckboxPrimitive.Root>) {
  return (
    <CheckboxPrimitive.Root
      className={cn(
        "grid size-4 shrink-0 place-items-center rounded border border-zinc-400 bg-white dark:border-zinc-600 dark:bg-zinc-900",
        "data-[state=checked]:border-zinc-900 data-[state=checked]:bg-zinc-900 data-[state=checked]:text-white",
        "data-[state=indeterminate]:border-zinc-900 data-[state=indeterminate]:bg-zinc-900 data-[state=indeterminate]:text-white",
        "dark:data-[state=checked]:border-sky-400 dark:data-[state=checked]:bg-sky-400 dark:data-[state=checked]:text-zinc-950",
        "dark:data-[state=indeterminate]:border-sky-400 dark:data-[state=indeterminate]:bg-sky-400 dark:data-[state=indeterminate]:text-zinc-950",
        focusRing,
        className,
      )}
      {...props}
    >
      <CheckboxPrimitive.Indicator className="group">
        <Check aria-hidden className="size-3 group-data-[state=indeterminate]:hidden" />
        <Minus aria-hidden className="hidden size-3 group-data-[state=indeterminate]:block" />
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
}
