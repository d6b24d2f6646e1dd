import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";

/** Preformatted text with a copy button; `label` names the block for screen readers. */
export function CodeBlock({ code, label, children }: { code: string; label: string; children?: ReactNode }) {
  return (
    <figure className="grid min-w-0 gap-2">
      <figcaption className="flex items-center justify-between gap-2 text-sm font-medium">
        <span>{label}</span>
        <CopyButton value={code} label={`Copy`} aria-label={`Copy ${label}`} />
      </figcaption>
      {children}
      <pre tabIndex={0} className="overflow-x-auto [contain:inline-size] rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed dark:border-zinc-800 dark:bg-zinc-950">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
