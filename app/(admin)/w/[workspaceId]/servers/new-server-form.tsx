"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Controller, useForm } from "react-hook-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FieldError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormAlert, errorAt } from "@/components/forms/form-alert";
import { applyResult } from "@/components/forms/apply-result";
import { CreateServerBody } from "@/lib/servers/schemas";
import { createServerAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";
import { plural } from "@/components/ui/plural";

export interface ConnectorOption {
  id: string;
  name: string;
  /** Shown beside the name: two connectors may share a name, never a slug. */
  slug: string;
  type: "http" | "mcp";
  toolCount: number;
}

export function NewServerForm({ workspaceId, orgId, connectors }: { workspaceId: string; orgId: string; connectors: ConnectorOption[] }) {
  const router = useRouter();
  const form = useForm({ resolver: zodResolver(CreateServerBody), defaultValues: { name: "", connectorIds: [] as string[] } });
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await createServerAction(workspaceId, values);
    if (applyResult(result, { form, success: `MCP server "${values.name}" created` })) router.push(`/w/${workspaceId}/servers/${result.data.id}`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormAlert form={form} />
      <Field id="server-name" label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...form.register("name")} maxLength={NAME_MAX_LENGTH} autoComplete="off" placeholder="Support" />}
      </Field>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Connectors</legend>
        {connectors.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            The organization has no connectors yet. <Link className="underline" href={`/orgs/${orgId}/connectors`}>Add one</Link>, or create the server empty and assign connectors later.
          </p>
        ) : (
          <Controller
            control={form.control}
            name="connectorIds"
            render={({ field }) => (
              <ul className="grid gap-2 sm:grid-cols-2">
                {connectors.map((c) => {
                  const checked = field.value?.includes(c.id) ?? false;
                  return (
                    <li key={c.id} className="flex items-center gap-2">
                      <Checkbox
                        id={`server-connector-${c.id}`}
                        checked={checked}
                        onCheckedChange={(next) => field.onChange(next ? [...(field.value ?? []), c.id] : (field.value ?? []).filter((id) => id !== c.id))}
                      />
                      <Label htmlFor={`server-connector-${c.id}`} className="flex items-center gap-2 font-normal">
                        {c.name}
                        <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.slug}</span>
                        <Badge>{c.type === "mcp" ? "MCP" : "HTTP"}</Badge>
                        <span className="text-xs text-zinc-500 dark:text-zinc-400">{plural(c.toolCount, "tool")}</span>
                      </Label>
                    </li>
                  );
                })}
              </ul>
            )}
          />
        )}
        <FieldError message={errorAt(form, "connectorIds")} />
      </fieldset>
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Creating…" : "Create server"}
        </Button>
      </div>
    </form>
  );
}
