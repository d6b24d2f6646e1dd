"use client";

import { useTransition } from "react";
import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { applyResult } from "@/components/forms/apply-result";
import type { ActionResult } from "@/components/forms/action-result";
import type { ConnectorToolView } from "@/lib/connectors/connector-view";
import { approvalChanges, type FieldChange } from "@/lib/connectors/approval-diff";

function pretty(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null, null, 2);
}

const PRE = "max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere] dark:bg-zinc-950";

/** One side of the diff: each changed field with its value on that side. */
function Side({ caption, changes, side }: { caption: string; changes: FieldChange[]; side: "approved" | "current" }) {
  return (
    <figure className="grid min-w-0 gap-1">
      <figcaption className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{caption}</figcaption>
      {changes.map((c) => (
        <div key={c.field} className="grid gap-0.5">
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{c.label}</span>
          <pre tabIndex={0} aria-label={`${c.label}, ${caption.toLowerCase()}`} className={PRE}>
            {pretty(side === "approved" ? c.approved : c.current)}
          </pre>
        </div>
      ))}
    </figure>
  );
}

/**
 * Tools waiting for approval (issue 26 point 2): for a changed tool, each field that changed —
 * the approved value still served next to the upstream's new one; for a new tool (not served
 * yet), what it would bring. Each with its Approve button.
 */
export function ToolApprovals({ tools, approve }: { tools: ConnectorToolView[]; approve: (tool: string) => Promise<ActionResult<unknown>> }) {
  const [pending, startTransition] = useTransition();
  const waiting = tools.filter((t) => t.approval);
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="approval-heading" className="grid gap-3 rounded-md border border-amber-300 p-3 dark:border-amber-800">
      <h3 id="approval-heading" className="font-semibold">
        Waiting for approval ({waiting.length})
      </h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">The upstream changed these tools. Until you approve, a changed tool keeps its approved definition and a new tool is not served.</p>
      {waiting.map((tool) => {
        const changes = approvalChanges(tool);
        const changed = tool.approval!.state === "changed";
        return (
          <article key={tool.name} aria-label={`Change of ${tool.name}`} className="grid gap-2 border-t border-amber-200 pt-3 dark:border-amber-900">
            <div className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 font-mono text-sm font-medium break-all">{tool.name}</span>
              <Badge tone="warning">{changed ? "Changed" : "New tool"}</Badge>
              <Button
                type="button"
                size="sm"
                className="ml-auto"
                disabled={pending}
                aria-label={`Approve ${tool.name}`}
                onClick={() => startTransition(async () => void applyResult(await approve(tool.name), { success: `${tool.name} approved` }))}
              >
                <Check aria-hidden />
                Approve
              </Button>
            </div>
            {changed && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                {changes.length > 0 ? `What changed: ${changes.map((c) => c.label.toLowerCase()).join(", ")}.` : "Nothing the model sees changed."}
              </p>
            )}
            <div className="grid gap-2 md:grid-cols-2">
              {changed && <Side caption="Approved (served now)" changes={changes} side="approved" />}
              <Side caption={changed ? "From the upstream now" : "From the upstream (not served yet)"} changes={changes} side="current" />
            </div>
          </article>
        );
      })}
    </section>
  );
}
