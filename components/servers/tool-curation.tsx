"use client";

import { useState, useTransition } from "react";
import { Pencil } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import type { ActionResult } from "@/components/forms/action-result";
import { HINTS, draftOf, itemsOf, modelView, type CuratedRow, type Draft, type OverrideItem } from "@/lib/servers/tool-curation-model";

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
  if (rows.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Assign a connector with tools to curate them here.</p>;
  const update = (key: string, change: Partial<Draft>) => setDrafts((current) => new Map(current).set(key, { ...current.get(key)!, ...change }));
  const newlyHidden = rows.filter((r) => drafts.get(r.key)!.hidden && !r.override?.hidden);
  const submit = () =>
    new Promise<boolean>((resolve) =>
      startTransition(async () => {
        const result = await save({ items: itemsOf(rows, drafts) }, version.current());
        version.track(result);
        resolve(applyResult(result, { success: "Tool overrides saved" }));
      }),
    );
  return (
    <div className="grid gap-3">
      <ul className="grid gap-2" aria-label="Tools as the model sees them">
        {rows.map((row) => {
          const draft = drafts.get(row.key)!;
          const seen = modelView(row, draft);
          return (
            <li key={row.key} className="grid gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
              <div className="flex flex-wrap items-center gap-2">
                <span className={draft.hidden ? "font-mono text-sm line-through" : "font-mono text-sm font-medium"}>{seen.name}</span>
                {seen.name !== row.tool && <span className="text-xs text-zinc-500 dark:text-zinc-400">(connector&apos;s name: {row.tool})</span>}
                {/* A long connector name ellipsed, not widening a phone's page. */}
                <Badge className="max-w-full min-w-0" title={row.connectorName}>
                  <span className="truncate">{row.connectorName}</span>
                </Badge>
                {draft.hidden && <Badge tone="danger">Hidden</Badge>}
                {row.missing && <Badge tone="danger">Gone upstream: override kept</Badge>}
                {seen.hints.map((h) => (
                  <Badge key={h}>{h}</Badge>
                ))}
                <Button type="button" variant="ghost" size="sm" className="ml-auto" aria-expanded={editing === row.key} aria-controls={`curate-${row.key}`} onClick={() => setEditing(editing === row.key ? null : row.key)}>
                  <Pencil aria-hidden />
                  {editing === row.key ? "Close" : `Edit ${seen.name}`}
                </Button>
              </div>
              {seen.description && <p className="text-sm text-zinc-600 dark:text-zinc-400">{seen.description}</p>}
              {editing === row.key && <RowEditor id={`curate-${row.key}`} row={row} draft={draft} onChange={(change) => update(row.key, change)} />}
            </li>
          );
        })}
      </ul>
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
    <div id={id} className="grid gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
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
