"use client";

import { useState } from "react";
import { FileUp, Plus, Wrench } from "lucide-react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { EmptyState } from "@/components/ui/empty-state";
import { ToolEditorCard } from "@/components/connectors/tool-editor-card";
import { type ImportedDocument, OpenApiImportDialog, type ReadOpenApiDocument } from "@/components/connectors/openapi-import-dialog";
import { emptyToolDraft, toolToDraft, type ToolDraftInput } from "@/components/connectors/connector-form-model";
import type { HttpToolInput } from "@/lib/connectors/schemas";

type ToolsForm = { tools: ToolDraftInput[] };

/** A name not used yet: `name`, else `name_2`, `name_3`, … (tool names are unique per connector). */
function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, 64 - String(n).length - 1)}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The tools of an http connector, edited in place: add by hand or import from an OpenAPI
 * document, filter by name or path, expand one to edit it. Lives inside a FormProvider.
 * `onDocument` receives what an imported document says about the whole API (title, base URL,
 * the secret headers its security schemes ask for).
 */
export function ToolListEditor({ onDocument, readDocument }: { onDocument?: (doc: ImportedDocument) => void; readDocument: ReadOpenApiDocument }) {
  const form = useFormContext<ToolsForm>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "tools" });
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const [importOpen, setImportOpen] = useState(false);
  const tools = useWatch({ control: form.control, name: "tools" });
  const errors = form.formState.errors.tools;

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const addTool = () => {
    append(emptyToolDraft());
    // The new row's field id exists after the render; expand it by index instead.
    setExpanded((current) => new Set(current).add(`new-${fields.length}`));
  };
  const addImported = (imported: HttpToolInput[], doc: ImportedDocument) => {
    const taken = new Set(tools.map((t) => t.name));
    const drafts = imported.map((tool) => {
      const name = freeName(tool.name, taken);
      taken.add(name);
      return toolToDraft({ ...tool, name });
    });
    append(drafts, { shouldFocus: false });
    onDocument?.(doc);
  };

  const needle = filter.trim().toLowerCase();
  const visible = fields
    .map((field, index) => ({ field, index }))
    .filter(({ index }) => !needle || `${tools[index]?.name} ${tools[index]?.path} ${tools[index]?.method}`.toLowerCase().includes(needle));

  return (
    <section aria-labelledby="tools-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="tools-heading" className="text-lg font-semibold">
          Tools <span className="text-sm font-normal text-zinc-500 dark:text-zinc-400">({fields.length})</span>
        </h2>
        <div className="flex flex-wrap gap-2">
          <OpenApiImportDialog
            trigger={
              <Button type="button" variant="outline" size="sm">
                <FileUp aria-hidden />
                Import from OpenAPI
              </Button>
            }
            open={importOpen}
            onOpenChange={setImportOpen}
            onImport={addImported}
            readDocument={readDocument}
          />
          <Button type="button" variant="outline" size="sm" onClick={addTool}>
            <Plus aria-hidden />
            Add tool
          </Button>
        </div>
      </div>
      {fields.length > 5 && (
        <Input type="search" aria-label="Filter tools by name, method or path" placeholder="Filter tools…" value={filter} onChange={(e) => setFilter(e.target.value)} />
      )}
      {fields.length === 0 ? (
        <EmptyState icon={Wrench} title="No tools yet">
          Add a tool by hand (name, method, path and input schema), or import the operations of an OpenAPI 3 document.
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {visible.map(({ field, index }) => (
            <ToolEditorCard
              key={field.id}
              index={index}
              expanded={expanded.has(field.id) || expanded.has(`new-${index}`) || Boolean(errors?.[index])}
              onToggle={() => toggle(expanded.has(`new-${index}`) ? `new-${index}` : field.id)}
              onRemove={() => remove(index)}
            />
          ))}
          {visible.length === 0 && <li className="text-sm text-zinc-600 dark:text-zinc-400">No tool matches “{filter}”.</li>}
        </ul>
      )}
    </section>
  );
}
