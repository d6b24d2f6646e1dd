import type { ComponentProps } from "react";
import { cn } from "@/components/ui/cn";

const TONES = {
  error: "border-red-300 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
  warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100",
  info: "border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100",
};

/** A message the user must notice. `tone="error"` is announced by screen readers as it appears. */
export function Alert({ className, tone = "error", ...props }: ComponentProps<"div"> & { tone?: keyof typeof TONES }) {
  return <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md border px-3 py-2 text-sm", TONES[tone], className)} {...props} />;
}
