"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { plural } from "@/components/ui/plural";
import { problemMessage } from "@/components/files/files-api";

/**
 * A bulk action of a list: the JSON API's bulk endpoint (the same operation as the single
 * action, once per object), asked for with the count named, and reported in words after.
 */
export interface BulkAction {
  /** e.g. "Delete", "Revoke". */
  verb: string;
  /** Singular noun of the rows ("connector"); `many` when the plural is irregular. */
  noun: string;
  many?: string;
  /** The bulk endpoint, e.g. "/api/v1/connectors/bulk-delete". */
  endpoint: string;
  /** What cannot be undone, said in the confirmation. */
  warning?: string;
  /** The body field holding the ids (default `ids`). */
  idsField?: string;
  /** A value chosen for all of them (e.g. the MCP role to give); "" is sent as null. */
  choice?: { field: string; label: string; options: { value: string; label: string }[] };
}

interface BulkAnswer {
  done: number;
  failed: number;
  results: { id: string; ok: boolean; error?: { message: string } }[];
}

function bodyOf(action: BulkAction, selected: { id: string }[], chosen: string): Record<string, unknown> {
  const body: Record<string, unknown> = { [action.idsField ?? "ids"]: selected.map((s) => s.id) };
  if (action.choice) body[action.choice.field] = chosen || null;
  return body;
}

export function BulkBar({ action, selected, onDone }: { action: BulkAction; selected: { id: string; label: string }[]; onDone: () => void }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [chosen, setChosen] = useState(action.choice?.options[0]?.value ?? "");
  const chosenLabel = action.choice?.options.find((o) => o.value === chosen)?.label;
  const count = plural(selected.length, action.noun, action.many);
  const run = async (): Promise<boolean> => {
    const res = await fetch(action.endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(bodyOf(action, selected, chosen)) }).catch(() => null);
    if (!res || !res.ok) {
      setMessage(problemMessage(res?.status ?? 0, res ? await res.text() : ""));
      return false;
    }
    const answer = (await res.json()) as BulkAnswer;
    const failures = answer.results.filter((r) => !r.ok).map((r) => `${selected.find((s) => s.id === r.id)?.label ?? r.id}: ${r.error?.message}`);
    setMessage(
      `${action.verb}: ${plural(answer.done, action.noun, action.many)} done.` + (failures.length ? ` Not done: ${failures.join("; ")}` : ""),
    );
    onDone();
    router.refresh();
    return true;
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p role="status" aria-live="polite" className="text-sm text-zinc-600 dark:text-zinc-400">
        {message ?? (selected.length > 0 ? `${count} selected` : "")}
      </p>
      {selected.length > 0 && action.choice && (
        <Select aria-label={action.choice.label} value={chosen} onChange={(e) => setChosen(e.target.value)} className="w-auto">
          {action.choice.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      )}
      {selected.length > 0 && (
        <ConfirmDialog
          trigger={
            <Button type="button" variant="destructive" size="sm">
              {action.verb} {count}
            </Button>
          }
          title={`${action.verb} ${count}${chosenLabel ? `: ${chosenLabel}` : ""}?`}
          description={
            <>
              <p>{selected.slice(0, 10).map((s) => s.label).join(", ")}{selected.length > 10 ? `, and ${selected.length - 10} more` : ""}.</p>
              {action.warning && <p className="mt-2">{action.warning}</p>}
            </>
          }
          confirmLabel={`${action.verb} ${count}`}
          pendingLabel="Working…"
          onConfirm={async () => {
            setMessage(null);
            return run();
          }}
        />
      )}
    </div>
  );
}
