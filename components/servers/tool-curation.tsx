"use client";

import { useState, useTransition } from "react";
import { Pencil } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import type { ActionResult } from "@/components/forms/action-result";
import { HINTS, draftOf, itemsOf, modelView, saveProblems, type CuratedRow, type Draft, type OverrideItem } from "@/lib/servers/tool-curation-model";

interface Props {
  serverId: string;
  rows: CuratedRow[];
  /** The overrides' ETag as the page loaded them. */
  version: string;
  save: (input: { items: OverrideItem[] }, version: string) => Promise<ActionResult<unknown> & { version?: string }>;
}

/**
 * The server's tools as the model will see them (issue 26 point 1): inline rename,
 * description, annotations and hide, saved together as the server's tool overrides. Hiding a
 * tool asks first: callers lose it at once.
 */
export function ToolCuration({ serverId, rows, version: loaded, save }: Props) {
  const version = useObjectVersion(`tool-overrides:${serverId}`, loaded);
  const [drafts, setDrafts] = useState(() => new Map(rows.map((r) => [r.key, draftOf(r)])));
  const [editing, setEditing] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [problems, setProblems] = useState<string[]>([]);
  if (rows.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Assign a connector with tools to curate them here.</p>;
  const update = (key: string, change: Partial<Draft>) => setDrafts((current) => new Map(current).set(key, { ...current.get(key)!, ...change }));
  const newlyHidden = rows.filter((r) => drafts.get(r.key)!.hidden && !r.override?.hidden);
  const submit = () =>
    new Promise<boolean>((resolve) =>
      startTransition(async () => {
        const items = itemsOf(rows, drafts);
        const result = await save({ items }, version.current());
        version.track(result);
        // A refused save names the tool each problem is about (a name collision names both).
        setProblems(result.ok ? [] : saveProblems(items, result.fieldErrors));
        resolve(applyResult(result, { success: "Tool overrides saved" }));
      }),
    );
  return (
    <div className="grid gap-3">
      <ul className="grid gap-2" aria-label="Tools as the model sees them">
        {rows.map((row, index) => {
          const draft = drafts.get(row.key)!;
          const seen = modelView(row, draft);
          return (
            <li key={row.key} className="grid gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
              {/* Long tool and connector names wrap or are cut short: they never widen a phone's page. */}
              <div className="flex min-w-0 flex-wrap items-center gap-2 [contain:inline-size]">
                <span className={`min-w-0 font-mono text-sm break-all ${draft.hidden ? "line-through" : "font-medium"}`}>{seen.name}</span>
                {seen.name !== row.tool && <span className="min-w-0 text-xs break-all text-zinc-600 dark:text-zinc-400">(connector&apos;s name: {row.tool})</span>}
                <Badge className="max-w-full" title={row.connectorName}>
                  <span className="truncate">{row.connectorName}</span>
                </Badge>
                {draft.hidden && <Badge tone="danger">Hidden</Badge>}
                {row.missing && <Badge tone="danger">Gone upstream: override kept</Badge>}
                {row.waiting === "new" && <Badge tone="warning">New upstream: not served until approved</Badge>}
                {row.waiting === "changed" && <Badge tone="warning">Changed upstream: approved version served</Badge>}
                {seen.hints.map((h) => (
                  <Badge key={h}>{h}</Badge>
                ))}
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="ml-auto"
                  aria-label={`Edit ${seen.name}`}
                  aria-expanded={editing === row.key}
                  aria-controls={`curate-${index}`}
                  onClick={() => setEditing(editing === row.key ? null : row.key)}
                >
                  <Pencil aria-hidden />
                  {editing === row.key ? "Done" : "Edit"}
                </Button>
              </div>
              {seen.description && <p className="text-sm [overflow-wrap:anywhere] text-zinc-600 dark:text-zinc-400">{seen.description}</p>}
              {editing === row.key && <RowEditor id={`curate-${index}`} row={row} draft={draft} onChange={(change) => update(row.key, change)} />}
            </li>
          );
        })}
      </ul>
      {problems.length > 0 && (
        <Alert>
          <p>These overrides were not saved:</p>
          <ul className="list-disc pl-5">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Alert>
      )}
      <div>
        {newlyHidden.length > 0 ? (
          <ConfirmDialog
            trigger={<Button type="button" disabled={pending}>Save tool overrides</Button>}
            title="Hide tools from this server?"
            description={`Callers of this server stop seeing and calling ${newlyHidden.map((r) => r.tool).join(", ")} at once.`}
            confirmLabel="Hide and save"
            pendingLabel="Saving…"
            onConfirm={submit}
          />
        ) : (
          <Button type="button" disabled={pending} aria-busy={pending} onClick={() => void submit()}>
            {pending ? "Saving…" : "Save tool overrides"}
          </Button>
        )}
      </div>
    </div>
  );
}

function RowEditor({ id, row, draft, onChange }: { id: string; row: CuratedRow; draft: Draft; onChange: (change: Partial<Draft>) => void }) {
  return (
    <div id={id} role="group" aria-label={`Edit ${row.tool}`} className="grid min-w-0 gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-name`} className="text-sm font-medium">Name the model sees</label>
        <Input id={`${id}-name`} value={draft.name} placeholder={row.tool} onChange={(e) => onChange({ name: e.target.value })} spellCheck={false} className="font-mono" />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-description`} className="text-sm font-medium">Description</label>
        <Textarea id={`${id}-description`} value={draft.description} placeholder={row.own.description || "No description"} onChange={(e) => onChange({ description: e.target.value })} rows={3} />
      </div>
      <fieldset className="grid gap-1.5">
        <legend className="text-sm font-medium">Annotations</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={draft.replaceAnnotations} onChange={(e) => onChange({ replaceAnnotations: e.target.checked })} />
          Replace the tool&apos;s own annotations with these
        </label>
        {HINTS.map(([hint, label]) => (
          <label key={hint} className="flex items-center gap-2 pl-6 text-sm">
            <input type="checkbox" disabled={!draft.replaceAnnotations} checked={draft.annotations[hint] === true} onChange={(e) => onChange({ annotations: { ...draft.annotations, [hint]: e.target.checked } })} />
            {label}
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.hidden} onChange={(e) => onChange({ hidden: e.target.checked })} />
        Hide from this server (neither listed nor callable)
      </label>
    </div>
  );
}
