import type { ComponentProps } from "react";
import { cn } from "@/components/ui/cn";

/**
 * A plain, scrollable data table. Give it a caption (visually hidden is fine) for screen readers.
 * `contain: inline-size` keeps a wide table from widening the grid or flex box it sits in (which
 * made whole pages scroll sideways on a phone): the table scrolls inside its frame instead.
 * `relative` keeps visually hidden (absolutely positioned) cell text inside that frame too.
 */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="relative w-full overflow-x-auto [contain:inline-size] rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className={cn("w-full border-collapse text-left text-sm [overflow-wrap:normal]", className)} {...props} />
    </div>
  );
}

export function THead(props: ComponentProps<"thead">) {
  return <thead className="border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950/40" {...props} />;
}

export function TBody(props: ComponentProps<"tbody">) {
  return <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800" {...props} />;
}

export function TH({ className, ...props }: ComponentProps<"th">) {
  return <th scope="col" className={cn("px-3 py-2 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400", className)} {...props} />;
}

export function TD({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-2 align-middle", className)} {...props} />;
}
