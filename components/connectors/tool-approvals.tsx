"use client";

import { useTransition } from "react";
import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { applyResult } from "@/components/forms/apply-result";
import type { ActionResult } from "@/components/forms/action-result";
import type { ConnectorToolView } from "@/lib/connectors/connector-view";

function pretty(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}

/**
 * Tools waiting for approval (issue 26 point 2): the approved definition still served next to
 * the upstream's new one, or a new tool not served yet, each with its Approve button.
 */
export function ToolApprovals({ tools, approve }: { tools: ConnectorToolView[]; approve: (tool: string) => Promise<ActionResult<unknown>> }) {
  const [pending, startTransition] = useTransition();
  const waiting = tools.filter((t) => t.approval);
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="approval-heading" role="status" className="grid gap-3 rounded-md border border-amber-300 p-3 dark:border-amber-800">
      <h3 id="approval-heading" className="font-semibold">
        Waiting for approval ({waiting.length})
      </h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">The upstream changed these tools. Until you approve, a changed tool keeps its approved definition and a new tool is not served.</p>
      {waiting.map((tool) => (
        <article key={tool.name} aria-label={`Change of ${tool.name}`} className="grid gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm font-medium">{tool.name}</span>
            <Badge tone="danger">{tool.approval!.state === "new" ? "New tool" : "Changed"}</Badge>
            <Button
              type="button"
              size="sm"
              className="ml-auto"
              disabled={pending}
              onClick={() => startTransition(async () => void applyResult(await approve(tool.name), { success: `${tool.name} approved` }))}
            >
              <Check aria-hidden />
              Approve {tool.name}
            </Button>
          </div>
          <div className="grid gap-2 md:grid-cols-2">
            {tool.approval!.approved && (
              <figure className="grid gap-1">
                <figcaption className="text-xs font-medium text-zinc-500">Approved (served now)</figcaption>
                <pre tabIndex={0} className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950">
                  {pretty(tool.approval!.approved)}
                </pre>
              </figure>
            )}
            <figure className="grid gap-1">
              <figcaption className="text-xs font-medium text-zinc-500">From the upstream now</figcaption>
              <pre tabIndex={0} className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950">
                {pretty({ title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations })}
              </pre>
            </figure>
          </div>
        </article>
      ))}
    </section>
  );
}
