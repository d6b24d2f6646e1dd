"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { ComponentProps } from "react";
import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { PutManualGraphBody } from "@/lib/knowledge-graph/schemas";
import { putManualGraphAction } from "@/app/(admin)/orgs/[orgId]/graph/actions";

interface Props {
  connector: { id: string; name: string };
  manual: {
    entities: { key: string; label: string; description: string | null }[];
    relations: { from: string; to: string; kind: string; description: string | null }[];
  };
  knownKeys: string[];
  /** The layer's ETag as the page loaded it. */
  version: string;
}

const blankToNull = (text: string | null | undefined) => (text?.trim() ? text : null);

function CellInput({ label, error, ...props }: { label: string; error?: string } & ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-0.5">
      <Input aria-label={label} aria-invalid={error ? true : undefined} className="h-9" autoComplete="off" {...props} />
      {error && <span className="text-xs text-red-700 dark:text-red-400">{error}</span>}
    </div>
  );
}

/** Add, edit and delete the connector's manual entities and relations; saving replaces the layer. */
export function ManualLayerEditor({ connector, manual, knownKeys, version: loaded }: Props) {
  const version = useObjectVersion(`graph:${connector.id}`, loaded);
  const defaults = {
    entities: manual.entities.map((e) => ({ ...e, description: e.description ?? "" })),
    relations: manual.relations.map((r) => ({ ...r, description: r.description ?? "" })),
  };
  const form = useForm({ resolver: zodResolver(PutManualGraphBody), defaultValues: defaults });
  const entities = useFieldArray({ control: form.control, name: "entities" });
  const relations = useFieldArray({ control: form.control, name: "relations" });
  const onSubmit = form.handleSubmit(async (values) => {
    const body = {
      entities: values.entities.map((e) => ({ ...e, description: blankToNull(e.description) })),
      relations: values.relations.map((r) => ({ ...r, description: blankToNull(r.description) })),
    };
    const result = await putManualGraphAction(connector.id, body, version.current());
    version.track(result);
    if (applyResult(result, { form, success: `Manual layer of ${connector.name} saved` })) {
      form.reset({
        entities: result.data.entities.map((e) => ({ ...e, description: e.description ?? "" })),
        relations: result.data.relations.map((r) => ({ ...r, description: r.description ?? "" })),
      });
    }
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-6" noValidate>
      <FormAlert form={form} />
      <datalist id="graph-keys">
        {knownKeys.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold">Entities of {connector.name}</legend>
        {entities.fields.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-400">No manual entities.</p>}
        {entities.fields.map((field, i) => (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_2fr_auto] items-start gap-2">
            <CellInput label={`Entity ${i + 1} key`} placeholder="customer" className="font-mono" error={errorAt(form, `entities.${i}.key`)} {...form.register(`entities.${i}.key`)} />
            <CellInput label={`Entity ${i + 1} label`} placeholder="Customer" error={errorAt(form, `entities.${i}.label`)} {...form.register(`entities.${i}.label`)} />
            <CellInput label={`Entity ${i + 1} description`} placeholder="Description (optional)" error={errorAt(form, `entities.${i}.description`)} {...form.register(`entities.${i}.description`)} />
            <Button type="button" variant="ghost" size="icon" aria-label={`Delete entity ${i + 1}`} onClick={() => entities.remove(i)}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => entities.append({ key: "", label: "", description: "" })}>
            <Plus aria-hidden />
            Add entity
          </Button>
        </div>
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold">Relations of {connector.name}</legend>
        {relations.fields.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-400">No manual relations.</p>}
        {relations.fields.map((field, i) => (
          <div key={field.id} className="grid grid-cols-[1fr_1fr_1fr_2fr_auto] items-start gap-2">
            <CellInput label={`Relation ${i + 1} from`} placeholder="from key" list="graph-keys" className="font-mono" error={errorAt(form, `relations.${i}.from`)} {...form.register(`relations.${i}.from`)} />
            <CellInput label={`Relation ${i + 1} kind`} placeholder="places" error={errorAt(form, `relations.${i}.kind`)} {...form.register(`relations.${i}.kind`)} />
            <CellInput label={`Relation ${i + 1} to`} placeholder="to key" list="graph-keys" className="font-mono" error={errorAt(form, `relations.${i}.to`)} {...form.register(`relations.${i}.to`)} />
            <CellInput label={`Relation ${i + 1} description`} placeholder="Description (optional)" error={errorAt(form, `relations.${i}.description`)} {...form.register(`relations.${i}.description`)} />
            <Button type="button" variant="ghost" size="icon" aria-label={`Delete relation ${i + 1}`} onClick={() => relations.remove(i)}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => relations.append({ from: "", to: "", kind: "", description: "" })}>
            <Plus aria-hidden />
            Add relation
          </Button>
        </div>
      </fieldset>
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save manual layer"}
        </Button>
      </div>
    </form>
  );
}
