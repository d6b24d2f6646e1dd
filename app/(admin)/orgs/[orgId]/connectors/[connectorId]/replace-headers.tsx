"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { z } from "zod";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { SecretHeadersEditor } from "@/components/connectors/secret-headers-editor";
import { HeaderRows, formPathOf, headersObject } from "@/components/connectors/connector-form-model";
import { updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const CurrentRow = z.object({ name: z.string(), value: z.string().max(8192), remove: z.boolean() });
const ChangeForm = z.object({ current: z.array(CurrentRow), headers: HeaderRows });
type ChangeFormValues = z.input<typeof ChangeForm>;

/** The form's rows as the API's headerChanges: typed values are set, ticked rows removed, blank ones kept. */
function headerChangesOf(values: ChangeFormValues) {
  const set = { ...Object.fromEntries(values.current.filter((r) => !r.remove && r.value !== "").map((r) => [r.name, r.value])), ...headersObject(values.headers) };
  return { set, remove: values.current.filter((r) => r.remove).map((r) => r.name) };
}

/**
 * Changes some secret headers and keeps the rest (values are never read back, so nobody has to
 * type the ones they are not changing): each current header can get a new value or be removed,
 * and new ones can be added.
 */
export function ReplaceHeadersButton({ connectorId, currentNames, version: loaded }: { connectorId: string; currentNames: string[]; version: string }) {
  const version = useObjectVersion(`connector:${connectorId}`, loaded);
  const [open, setOpen] = useState(false);
  const initial: ChangeFormValues = { current: currentNames.map((name) => ({ name, value: "", remove: false })), headers: [] };
  const form = useForm({ resolver: zodResolver(ChangeForm), defaultValues: initial });
  const save = form.handleSubmit(async (values) => {
    const result = await updateConnectorAction(connectorId, { config: { headerChanges: headerChangesOf(values) } }, version.current());
    version.track(result);
    const mapPath = (path: string) => (path.startsWith("config.headerChanges") ? "headers" : formPathOf(path));
    if (applyResult(result, { form, success: "Secret headers saved", mapPath })) setOpen(false);
  });
  const clear = async () => {
    const result = await updateConnectorAction(connectorId, { config: { headers: {} } }, version.current());
    version.track(result);
    return applyResult(result, { success: "Secret headers cleared" });
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (next) form.reset(initial);
          setOpen(next);
        }}
      >
        {/* The dialog's Radix trigger: Escape, Close, Cancel and a save put focus back on it. */}
        <DialogTrigger asChild>
          <Button type="button" variant="outline">
            <KeyRound aria-hidden />
            {currentNames.length ? "Change headers" : "Add headers"}
          </Button>
        </DialogTrigger>
        <DialogContent title="Change secret headers" description="Type a new value only for the headers you change; the others keep their current value.">
          <FormProvider {...form}>
            <form onSubmit={save} className="grid gap-4" noValidate>
              <FormAlert form={form} />
              {currentNames.length > 0 && (
                <fieldset className="grid gap-2">
                  <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">Current headers</legend>
                  {currentNames.map((name, i) => (
                    <div key={name} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-center gap-2">
                      <code className="truncate font-mono text-sm" title={name}>
                        {name}
                      </code>
                      <Input
                        aria-label={`New value of ${name}`}
                        placeholder="unchanged"
                        type="password"
                        autoComplete="new-password"
                        maxLength={8192}
                        {...form.register(`current.${i}.value`)}
                      />
                      <label className="flex items-center gap-1.5 text-sm">
                        <input type="checkbox" {...form.register(`current.${i}.remove`)} />
                        Remove
                      </label>
                    </div>
                  ))}
                </fieldset>
              )}
              <SecretHeadersEditor idPrefix="replace" legend="New headers" />
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button type="button" variant="outline">
                    Cancel
                  </Button>
                </DialogClose>
                <Button type="submit" disabled={form.formState.isSubmitting}>
                  {form.formState.isSubmitting ? "Saving…" : "Save headers"}
                </Button>
              </div>
            </form>
          </FormProvider>
        </DialogContent>
      </Dialog>
      {currentNames.length > 0 && (
        <ConfirmDialog
          trigger={<Button variant="ghost">Clear all headers</Button>}
          title="Clear every secret header?"
          description="Requests to the upstream go out without them from the next call on."
          confirmLabel="Clear headers"
          pendingLabel="Clearing…"
          onConfirm={clear}
        />
      )}
    </div>
  );
}
