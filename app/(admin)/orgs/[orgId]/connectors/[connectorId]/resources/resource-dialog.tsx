"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { duplicateUriOf, resourceWarnings } from "@/components/connectors/resource-warnings";
import { CreateStoredResourceBody } from "@/lib/resources/schemas";
import {
  createStoredResourceAction,
  deleteStoredResourceAction,
  updateStoredResourceAction,
} from "@/app/(admin)/orgs/[orgId]/connectors/[connectorId]/resources/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

export interface ResourceRow {
  id: string;
  uri: string;
  name: string;
  description: string | null;
  mimeType: string | null;
  fetchConfig: Record<string, unknown> | null;
}

/** The form: the API's fields, with the served text (the API's `fetchConfig.text`) as "Content". */
const ResourceForm = CreateStoredResourceBody.pick({ uri: true, name: true }).extend({
  description: z.string().max(20_000),
  mimeType: z.string().max(255),
  text: z.string().max(1_000_000),
});
type ResourceFormValues = z.input<typeof ResourceForm>;

function staticText(config: Record<string, unknown> | null): string {
  const value = config?.text ?? config?.content;
  return typeof value === "string" ? value : "";
}

/** Add (no `resource`) or edit a stored resource; warnings follow the URI as it is typed. */
export function ResourceDialog({ connectorId, siblings, resource }: { connectorId: string; siblings: ResourceRow[]; resource?: ResourceRow }) {
  const [open, setOpen] = useState(false);
  // The URI whose duplicate the admin has been warned about and chose to save anyway.
  const [acceptedDuplicate, setAcceptedDuplicate] = useState<string | null>(null);
  const initial: ResourceFormValues = {
    uri: resource?.uri ?? "",
    name: resource?.name ?? "",
    description: resource?.description ?? "",
    mimeType: resource?.mimeType ?? "text/markdown",
    text: staticText(resource?.fetchConfig ?? null),
  };
  const form = useForm({ resolver: zodResolver(ResourceForm), defaultValues: initial });
  const [uri, mimeType, text] = useWatch({ control: form.control, name: ["uri", "mimeType", "text"] });
  const others = siblings.filter((s) => s.id !== resource?.id);
  const live = resourceWarnings({ uri, mimeType: mimeType || null, fetchConfig: text ? { text } : null }, [...others, { uri }]);
  const otherKeys = Object.keys(resource?.fetchConfig ?? {}).filter((k) => k !== "text");
  const duplicate = duplicateUriOf(uri, [...others, { uri }]);
  const mustConfirm = duplicate !== null && acceptedDuplicate !== uri;
  const onSubmit = form.handleSubmit(async (values) => {
    // Two rows with one URI are both withheld from MCP clients: the admin must know before saving.
    if (mustConfirm) return setAcceptedDuplicate(null);
    const body = {
      uri: values.uri,
      name: values.name,
      description: values.description.trim() ? values.description : null,
      mimeType: values.mimeType.trim() ? values.mimeType : null,
      fetchConfig: values.text ? { text: values.text } : null,
    };
    const result = resource ? await updateStoredResourceAction(resource.id, body) : await createStoredResourceAction(connectorId, body);
    const mapPath = (p: string) => (p.startsWith("fetchConfig") ? "text" : p);
    if (applyResult(result, { form, success: resource ? "Resource saved" : `Resource "${values.name}" added`, mapPath })) setOpen(false);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) form.reset(initial);
        setAcceptedDuplicate(null);
        setOpen(next);
      }}
    >
      {/* The dialog's Radix trigger: Escape, Close, Cancel and a save put focus back on it. */}
      <DialogTrigger asChild>
        <Button type="button" variant={resource ? "ghost" : "primary"} size="sm" aria-label={resource ? `Edit ${resource.name}` : undefined}>
          {resource ? <Pencil aria-hidden /> : <Plus aria-hidden />}
          {resource ? "Edit" : "Add resource"}
        </Button>
      </DialogTrigger>
      <DialogContent title={resource ? `Edit ${resource.name}` : "Add a stored resource"} className="max-w-2xl">
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <FormAlert form={form} />
          <Field id="resource-uri" label="URI" hint='Any absolute URI with a scheme, e.g. "crm://schema". Not anythingmcp:.' error={errorAt(form, "uri")}>
            {(control) => <Input {...control} {...form.register("uri")} maxLength={2048} className="font-mono" autoComplete="off" />}
          </Field>
          {live.length > 0 && (
            <ul className="grid gap-1" aria-live="polite">
              {live.map((w) => (
                <li key={w.text}>
                  <Badge tone={w.level === "skipped" ? "danger" : "warning"} className="whitespace-normal">
                    {w.text}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="resource-name" label="Name" error={errorAt(form, "name")}>
              {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
            </Field>
            <Field id="resource-mime" label="MIME type" hint="Plain type/subtype; empty: text/plain" error={errorAt(form, "mimeType")}>
              {(control) => <Input {...control} {...form.register("mimeType")} maxLength={255} className="font-mono" autoComplete="off" />}
            </Field>
          </div>
          <Field id="resource-description" label="Description (optional)" error={errorAt(form, "description")}>
            {(control) => <Input {...control} {...form.register("description")} autoComplete="off" />}
          </Field>
          {otherKeys.length > 0 && (
            <Alert tone="info">
              This resource also has stored settings ({otherKeys.join(", ")}) that are never fetched nor shown to MCP clients. Saving keeps only the
              content below.
            </Alert>
          )}
          <Field id="resource-text" label="Content (static text)" hint="What MCP clients get when they read this resource." error={errorAt(form, "text")}>
            {(control) => <Textarea {...control} {...form.register("text")} rows={10} className="font-mono text-xs" />}
          </Field>
          {duplicate !== null && (
            <Alert tone="warning">
              <code className="font-mono">{duplicate}</code> is already the URI of another resource of this connector. MCP clients get neither of the two
              until one changes.{" "}
              {mustConfirm ? (
                <Button type="button" variant="outline" size="sm" onClick={() => setAcceptedDuplicate(uri)}>
                  I understand, allow saving
                </Button>
              ) : (
                "Saving is allowed."
              )}
            </Alert>
          )}
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={form.formState.isSubmitting || mustConfirm}>
              {form.formState.isSubmitting ? "Saving…" : resource ? "Save resource" : "Add resource"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function DeleteResourceButton({ resource }: { resource: ResourceRow }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="sm" aria-label={`Delete ${resource.name}`}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      }
      title={`Delete ${resource.name}?`}
      description={
        <>
          MCP clients stop seeing <code className="font-mono">{resource.uri}</code> on their next request.
        </>
      }
      confirmLabel="Delete resource"
      pendingLabel="Deleting…"
      onConfirm={async () => applyResult(await deleteStoredResourceAction(resource.id), { success: `Resource "${resource.name}" deleted` })}
    />
  );
}
