"use client";

import { type ReactNode, useMemo, useState, useTransition } from "react";
import { AlertTriangle } from "lucide-react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import type { HttpToolInput } from "@/lib/connectors/schemas";
import type { OpenApiImport } from "@/lib/connectors/import-openapi";
import type { ActionResult } from "@/components/forms/action-result";
import { plural } from "@/components/ui/plural";

/** Server actions take at most 1 MB by default; say so before the upload fails. */
const MAX_TEXT = 1_000_000;

/** What a document says about the API as a whole. */
export type ImportedDocument = Pick<OpenApiImport, "title" | "baseUrl" | "secretHeaders">;

/** Reads a document on the server: the page hands in its server action (components never import from app/). */
export type ReadOpenApiDocument = (text: string) => Promise<ActionResult<OpenApiImport>>;

interface Props {
  /**
   * The button that opens the dialog, rendered as its Radix trigger (as the other dialogs do):
   * closing the dialog, by Escape, Close or after an import, puts focus back on it.
   */
  trigger: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onImport: (tools: HttpToolInput[], doc: ImportedDocument) => void;
  readDocument: ReadOpenApiDocument;
}

/**
 * Import from OpenAPI 3: paste or upload a JSON/YAML document, read it on the server (parsed
 * and dereferenced by lib/connectors/import-openapi.ts), pick operations, get one tool each.
 */
export function OpenApiImportDialog({ trigger, open, onOpenChange, onImport, readDocument }: Props) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<OpenApiImport | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [pending, startTransition] = useTransition();

  const reset = () => {
    setText("");
    setError(null);
    setResult(null);
    setChosen(new Set());
  };
  const read = () =>
    startTransition(async () => {
      setError(null);
      if (text.length > MAX_TEXT) return setError("The document is larger than 1 MB; remove the operations you do not need and try again.");
      const answer = await readDocument(text);
      if (!answer.ok) return setError(answer.error);
      setResult(answer.data);
      setChosen(new Set(answer.data.operations.map((o) => o.key)));
    });
  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_TEXT) return setError("The file is larger than 1 MB.");
    setText(await file.text());
    setResult(null);
  };
  const confirm = () => {
    if (!result) return;
    const tools = result.operations.filter((o) => chosen.has(o.key)).map((o) => o.tool);
    onImport(tools, { title: result.title, baseUrl: result.baseUrl, secretHeaders: result.secretHeaders });
    toast.success(`${tools.length} tool${tools.length === 1 ? "" : "s"} added from ${result.title ?? "the document"}; save to keep them`);
    reset();
    onOpenChange(false);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent title="Import from OpenAPI" description="One tool per operation, with its parameters and JSON body as the input schema." className="max-w-3xl">
        {!result ? (
          <div className="grid gap-4">
            {error && <Alert>{error}</Alert>}
            <div className="grid gap-1.5">
              <Label htmlFor="openapi-file">Upload a file (.json, .yaml, .yml)</Label>
              <Input id="openapi-file" type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" onChange={(e) => upload(e.target.files?.[0])} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="openapi-text">…or paste the document</Label>
              <Textarea id="openapi-text" value={text} onChange={(e) => setText(e.target.value)} rows={12} className="font-mono text-xs" placeholder="openapi: 3.1.0" spellCheck={false} />
            </div>
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="button" onClick={read} disabled={pending || !text.trim()}>
                {pending ? "Reading…" : "Read document"}
              </Button>
            </div>
          </div>
        ) : (
          <OperationPicker result={result} chosen={chosen} setChosen={setChosen} onBack={() => setResult(null)} onConfirm={confirm} />
        )}
      </DialogContent>
    </Dialog>
  );
}

interface PickerProps {
  result: OpenApiImport;
  chosen: Set<string>;
  setChosen: (next: Set<string>) => void;
  onBack: () => void;
  onConfirm: () => void;
}

function OperationPicker({ result, chosen, setChosen, onBack, onConfirm }: PickerProps) {
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const visible = useMemo(
    () => result.operations.filter((o) => !needle || `${o.key} ${o.tool.name} ${o.summary ?? ""} ${o.tags.join(" ")}`.toLowerCase().includes(needle)),
    [result, needle],
  );
  const allVisibleChosen = visible.length > 0 && visible.every((o) => chosen.has(o.key));
  const someVisibleChosen = visible.some((o) => chosen.has(o.key));
  const toggleAll = () => {
    const next = new Set(chosen);
    for (const o of visible) {
      if (allVisibleChosen) next.delete(o.key);
      else next.add(o.key);
    }
    setChosen(next);
  };
  const toggle = (key: string) => {
    const next = new Set(chosen);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setChosen(next);
  };
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        <span className="font-medium">{result.title ?? "Untitled API"}</span> {result.version && <span className="text-zinc-500 dark:text-zinc-400">v{result.version}</span>} · OpenAPI {result.openapiVersion}
        {result.baseUrl && (
          <>
            {" "}
            · base URL <code className="font-mono">{result.baseUrl}</code>
          </>
        )}
      </p>
      {result.secretHeaders.length > 0 && (
        <Alert tone="info">
          The API asks for {result.secretHeaders.map((h) => h.name).join(" and ")}: {result.secretHeaders.length === 1 ? "it is" : "they are"} added to the
          secret headers for you to fill in.
        </Alert>
      )}
      {result.warnings.map((w) => (
        <Alert key={w} tone="info">
          {w}
        </Alert>
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <Checkbox id="openapi-all" checked={allVisibleChosen ? true : someVisibleChosen ? "indeterminate" : false} onCheckedChange={toggleAll} />
          <Label htmlFor="openapi-all">Select all{needle ? " shown" : ""}</Label>
        </div>
        <Input type="search" aria-label="Filter operations" placeholder="Filter operations…" value={filter} onChange={(e) => setFilter(e.target.value)} className="h-9 max-w-xs" />
        <span className="ml-auto text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
          {chosen.size} of {result.operations.length} selected
        </span>
      </div>
      <ul className="grid max-h-[45dvh] gap-1 overflow-y-auto rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
        {visible.map((o, index) => (
          <li key={o.key} className="grid gap-1 rounded px-2 py-1.5 hover:bg-zinc-50 dark:hover:bg-zinc-800/50">
            <div className="flex items-center gap-2">
              <Checkbox id={`op-${index}`} checked={chosen.has(o.key)} onCheckedChange={() => toggle(o.key)} />
              <Label htmlFor={`op-${index}`} className="flex min-w-0 flex-1 flex-wrap items-center gap-2 font-normal">
                <Badge className="font-mono">{o.method}</Badge>
                <span className="font-mono text-xs">{o.path}</span>
                <span className="font-medium">{o.tool.name}</span>
                {o.summary && <span className="truncate text-zinc-500 dark:text-zinc-400">{o.summary}</span>}
                {o.deprecated && <Badge tone="warning">deprecated</Badge>}
              </Label>
            </div>
            {o.warnings.map((w) => (
              <p key={w} className="flex items-start gap-1 pl-6 text-xs text-amber-800 dark:text-amber-300">
                <AlertTriangle aria-hidden className="mt-0.5 size-3 shrink-0" />
                {w}
              </p>
            ))}
          </li>
        ))}
        {visible.length === 0 && <li className="p-2 text-sm text-zinc-600 dark:text-zinc-400">No operation matches.</li>}
      </ul>
      {result.skipped.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer">{plural(result.skipped.length, "operation")} cannot become tools</summary>
          <ul className="mt-1 list-disc pl-6 text-zinc-600 dark:text-zinc-400">
            {result.skipped.map((s) => (
              <li key={s.key}>
                <span className="font-mono">{s.key}</span>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="flex justify-between gap-2">
        <Button type="button" variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button type="button" onClick={onConfirm} disabled={chosen.size === 0}>
          Add {chosen.size} tool{chosen.size === 1 ? "" : "s"}
        </Button>
      </div>
    </div>
  );
}
