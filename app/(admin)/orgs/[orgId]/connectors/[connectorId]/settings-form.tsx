"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { formPathOf } from "@/components/connectors/connector-form-model";
import { HttpUrl } from "@/lib/connectors/schemas";
import { Name } from "@/lib/schemas/common";
import { deleteConnectorAction, updateConnectorAction } from "@/app/(admin)/orgs/[orgId]/connectors/actions";

const SettingsForm = z.object({ name: Name, url: HttpUrl });

interface Props {
  connector: { id: string; type: "http" | "mcp"; name: string; url: string };
}

export function ConnectorSettingsForm({ connector }: Props) {
  const form = useForm({ resolver: zodResolver(SettingsForm), defaultValues: { name: connector.name, url: connector.url } });
  const urlKey = connector.type === "http" ? "baseUrl" : "url";
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await updateConnectorAction(connector.id, { name: values.name, config: { [urlKey]: values.url } });
    const ok = applyResult(result, { form, success: "Connector saved", mapPath: (p) => (formPathOf(p) === urlKey ? "url" : formPathOf(p)) });
    if (ok) form.reset({ name: result.data.name, url: result.data.config[urlKey] ?? "" });
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="connector-name" label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} autoComplete="off" />}
      </Field>
      <Field
        id="connector-url"
        label={connector.type === "http" ? "Base URL" : "MCP server URL"}
        hint={connector.type === "mcp" ? "After changing it, reload the tools on the Tools page." : undefined}
        error={errorAt(form, "url")}
      >
        {(control) => <Input {...control} {...form.register("url")} type="url" className="font-mono" autoComplete="off" />}
      </Field>
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || !form.formState.isDirty}>
          {form.formState.isSubmitting ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

export function DeleteConnectorButton({ connector }: { connector: { id: string; name: string; orgId: string } }) {
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden />
          Delete connector
        </Button>
      }
      title={`Delete ${connector.name}?`}
      description="MCP clients lose its tools on their next request. Roles keep its tool names, but they match nothing. This cannot be undone."
      confirmLabel="Delete connector"
      pendingLabel="Deleting…"
      onConfirm={async () => {
        if (!applyResult(await deleteConnectorAction(connector.id), { success: `Connector "${connector.name}" deleted` })) return false;
        router.push(`/orgs/${connector.orgId}/connectors`);
        router.refresh();
      }}
    />
  );
}
