"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { z } from "zod";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { FormAlert } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { SecretHeadersEditor } from "@/components/connectors/secret-headers-editor";
import { HeaderRows, formPathOf, headersObject } from "@/components/connectors/connector-form-model";
import { updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const ReplaceForm = z.object({ headers: HeaderRows });

/**
 * Replaces the whole secret header set (the API has no way to change one value without the
 * others, and values are never read back): the rows start with the current names, values blank.
 */
export function ReplaceHeadersButton({ connectorId, currentNames, version: loaded }: { connectorId: string; currentNames: string[]; version: string }) {
  const version = useObjectVersion(`connector:${connectorId}`, loaded);
  const [open, setOpen] = useState(false);
  const initial = { headers: currentNames.map((name) => ({ name, value: "" })) };
  const form = useForm({ resolver: zodResolver(ReplaceForm), defaultValues: initial });
  const save = form.handleSubmit(async (values) => {
    const result = await updateConnectorAction(connectorId, { config: { headers: headersObject(values.headers) } }, version.current());
    version.track(result);
    if (applyResult(result, { form, success: "Secret headers replaced", mapPath: formPathOf })) setOpen(false);
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
        <Button type="button" variant="outline" onClick={() => setOpen(true)}>
          <KeyRound aria-hidden />
          {currentNames.length ? "Replace headers" : "Add headers"}
        </Button>
        <DialogContent title="Replace secret headers" description="Enter every header the upstream needs, with its value. Headers you leave out are removed.">
          <FormProvider {...form}>
            <form onSubmit={save} className="grid gap-4" noValidate>
              <FormAlert form={form} />
              <SecretHeadersEditor idPrefix="replace" legend="New headers" />
              <div className="flex justify-end gap-2">
                <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
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
