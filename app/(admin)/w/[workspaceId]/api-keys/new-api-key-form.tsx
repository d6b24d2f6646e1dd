"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { CreateApiKeyBody } from "@/lib/api-keys/schemas";
import { createApiKeyAction } from "@/app/(admin)/w/[workspaceId]/api-keys/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";

/** The API's body, with the expiry picked as a date (the key expires at the end of that day, local time). */
const KeyForm = CreateApiKeyBody.pick({ name: true }).extend({
  userId: z.string(),
  serverId: z.string(),
  expiresOn: z.string().refine((d) => d === "" || new Date(`${d}T23:59:59`).getTime() > Date.now(), "Pick a date in the future."),
});
type KeyFormValues = z.input<typeof KeyForm>;

interface Props {
  workspaceId: string;
  /** null for members: they cannot pin keys nor issue keys for others. */
  servers: { id: string; name: string }[] | null;
  members: { userId: string; label: string }[] | null;
  selfId: string;
}

export function NewApiKeyForm({ workspaceId, servers, members, selfId }: Props) {
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const defaults: KeyFormValues = { name: "", userId: selfId, serverId: "", expiresOn: "" };
  const form = useForm({ resolver: zodResolver(KeyForm), defaultValues: defaults });
  const onSubmit = form.handleSubmit(async (values) => {
    const body = {
      name: values.name,
      ...(values.userId && values.userId !== selfId ? { userId: values.userId } : {}),
      ...(values.serverId ? { serverId: values.serverId } : {}),
      ...(values.expiresOn ? { expiresAt: new Date(`${values.expiresOn}T23:59:59`).toISOString() } : {}),
    };
    const result = await createApiKeyAction(workspaceId, body);
    if (applyResult(result, { form, mapPath: (p) => (p === "expiresAt" ? "expiresOn" : p) })) {
      setCreated({ name: result.data.name, key: result.data.key });
      form.reset(defaults);
    }
  });
  return (
    <>
      <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
        <div className="sm:col-span-2">
          <FormAlert form={form} />
        </div>
        <Field id="key-name" label="Name" error={errorAt(form, "name")}>
          {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" placeholder="Claude Desktop" />}
        </Field>
        <Field id="key-expires" label="Expires on (optional)" hint="Empty: never expires." error={errorAt(form, "expiresOn")}>
          {(control) => <Input {...control} {...form.register("expiresOn")} type="date" />}
        </Field>
        {servers && (
          <Field id="key-server" label="MCP server" hint="Pinned keys open one server only." error={errorAt(form, "serverId")}>
            {(control) => (
              <Select {...control} {...form.register("serverId")}>
                <option value="">All servers of the workspace</option>
                {servers.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        {members && (
          <Field id="key-user" label="Acts as" hint="The key gets exactly this person's tools." error={errorAt(form, "userId")}>
            {(control) => (
              <Select {...control} {...form.register("userId")}>
                <option value={selfId}>Me</option>
                {members
                  .filter((m) => m.userId !== selfId)
                  .map((m) => (
                    <option key={m.userId} value={m.userId}>
                      {m.label}
                    </option>
                  ))}
              </Select>
            )}
          </Field>
        )}
        <div className="sm:col-span-2">
          <Button ref={submitRef} type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
      <Dialog open={created !== null} onOpenChange={(open) => !open && setCreated(null)}>
        {/*
          No button opens this dialog (the form's submit does), so Radix has no trigger to give focus
          back to and it would fall to <body>. It goes back to "Create key": the control the keyboard
          user pressed (or submitted from next to), in the form that is now empty for the next key.
          The new key's row is not a good target: the table re-renders from the server after the
          action and its row may not be there yet (or on this page of a sorted, paged list).
        */}
        <DialogContent
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            submitRef.current?.focus();
          }}
          title="Copy your new API key"
          description="This is the only time the key is shown. Store it now; only its first characters are kept for display."
        >
          {created && (
            <div className="grid gap-4">
              <Alert tone="info">
                Key <strong>{created.name}</strong> created.
              </Alert>
              <div className="flex flex-wrap items-center gap-2">
                <code id="new-api-key" className="min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-sm break-all dark:border-zinc-800 dark:bg-zinc-950">
                  {created.key}
                </code>
                <CopyButton value={created.key} label="Copy key" />
              </div>
              <div className="flex justify-end">
                <Button type="button" onClick={() => setCreated(null)}>
                  I have stored the key
                </Button>
              </div>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
