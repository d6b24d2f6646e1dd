import type { ComponentProps } from "react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      className={cn(
        "flex min-h-20 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-400",
        "disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100",
        "aria-invalid:border-red-500 dark:aria-invalid:border-red-400",
        focusRing,
        className,
      )}
      {...props}
    />
  );
}
