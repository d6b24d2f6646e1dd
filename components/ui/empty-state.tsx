import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** What an empty list looks like: what is missing, and what to do next. */
export function EmptyState({ icon: Icon, title, children, action }: { icon?: LucideIcon; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="grid justify-items-center gap-3 rounded-lg border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700">
      {Icon && <Icon aria-hidden className="size-8 text-zinc-400" />}
      <h2 className="text-base font-semibold">{title}</h2>
      {children && <div className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{children}</div>}
      {action}
    </div>
  );
}
