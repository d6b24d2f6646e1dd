"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { type PickerConnector, ToolWhitelistPicker, toolKey } from "@/components/roles/tool-whitelist-picker";
import { Name } from "@/lib/schemas/common";
import { deleteRoleAction, updateRoleAction } from "@/app/(admin)/orgs/[orgId]/roles/actions";
import { NAME_MAX_LENGTH } from "@/lib/schemas/common";
import { plural } from "@/components/ui/plural";

interface Props {
  orgId: string;
  role: { id: string; name: string; tools: { connectorId: string; tool: string }[]; prompts: { connectorId: string; prompt: string }[] };
  connectors: PickerConnector[];
  /** The `mcp` connectors offering prompts, each with its prompts as picker entries. */
  promptConnectors: PickerConnector[];
  /** The role's version as the page loaded it (its ETag). */
  version: string;
}

/** A role's name and whitelist, saved together (the whole list replaces the old one). */
export function RoleEditor({ orgId, role, connectors, promptConnectors, version: loaded }: Props) {
  const router = useRouter();
  const version = useObjectVersion(`role:${role.id}`, loaded);
  const [name, setName] = useState(role.name);
  const [nameError, setNameError] = useState<string>();
  const [selected, setSelected] = useState(() => new Set(role.tools.map((t) => toolKey(t.connectorId, t.tool))));
  const [selectedPrompts, setSelectedPrompts] = useState(() => new Set(role.prompts.map((p) => toolKey(p.connectorId, p.prompt))));
  const [pending, startTransition] = useTransition();
  const offered = new Set(connectors.flatMap((c) => c.tools.map((t) => toolKey(c.id, t.name))));
  const connectorName = new Map(connectors.map((c) => [c.id, c.name]));
  const stale = [...selected].filter((k) => !offered.has(k)).map((k) => k.split("\u0000") as [string, string]);

  const save = () => {
    const parsed = Name.safeParse(name);
    setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (!parsed.success) return;
    const tools = [...selected].map((k) => {
      const [connectorId, tool] = k.split("\u0000");
      return { connectorId, tool };
    });
    // Prompts no connector offers right now stay allowed, as tools do (kept by name).
    const prompts = [...selectedPrompts].map((k) => {
      const [connectorId, prompt] = k.split("\u0000");
      return { connectorId, prompt };
    });
    startTransition(async () => {
      const result = await updateRoleAction(role.id, { name: parsed.data, tools, prompts }, version.current());
      version.track(result);
      if (!result.ok && result.fieldErrors?.name) setNameError(result.fieldErrors.name);
      applyResult(result, { success: `Role saved (${plural(tools.length, "tool")}${prompts.length ? `, ${plural(prompts.length, "prompt")}` : ""})` });
    });
  };
  return (
    <div className="grid gap-6">
      <Card aria-labelledby="role-general">
        <CardHeader>
          <CardTitle id="role-general">Name</CardTitle>
        </CardHeader>
        <CardContent>
          <Field id="role-name" label="Role name" error={nameError}>
            {(control) => <Input {...control} value={name} onChange={(e) => setName(e.target.value)} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
          </Field>
        </CardContent>
      </Card>
      <section aria-labelledby="whitelist-title" className="grid gap-3">
        <div>
          <h2 id="whitelist-title" className="text-lg font-semibold">
            Tool whitelist
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Tools are kept by connector and name, so a reload that brings a tool back keeps it allowed.</p>
        </div>
        <ToolWhitelistPicker connectors={connectors} selected={selected} onChange={setSelected} />
        {stale.length > 0 && (
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Not offered right now</CardTitle>
              <CardDescription>Allowed by this role, but their connector does not offer them at the moment. Uncheck to drop them.</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-1 text-sm">
                {stale.map(([connectorId, tool]) => (
                  <li key={`${connectorId}/${tool}`} className="flex items-center gap-2">
                    <span className="font-mono">{tool}</span>
                    <span className="text-zinc-500 dark:text-zinc-400">({connectorName.get(connectorId) ?? "deleted connector"})</span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      onClick={() => {
                        const next = new Set(selected);
                        next.delete(toolKey(connectorId, tool));
                        setSelected(next);
                      }}
                    >
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        )}
      </section>
      {promptConnectors.length > 0 && (
        <section aria-labelledby="prompt-whitelist-title" className="grid gap-3">
          <div>
            <h2 id="prompt-whitelist-title" className="text-lg font-semibold">
              Prompt whitelist
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Prompts of MCP connectors&apos; upstream servers. A connector is usable — its resources included — when any of its tools or prompts is allowed.
            </p>
          </div>
          <ToolWhitelistPicker noun="prompt" connectors={promptConnectors} selected={selectedPrompts} onChange={setSelectedPrompts} />
        </section>
      )}
      <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-zinc-50/95 py-3 dark:border-zinc-800 dark:bg-zinc-950/95">
        <Button type="button" onClick={save} disabled={pending}>
          {pending ? "Saving…" : "Save role"}
        </Button>
        <ConfirmDialog
          trigger={
            <Button type="button" variant="ghost" className="ml-auto">
              <Trash2 aria-hidden />
              Delete role
            </Button>
          }
          title={`Delete ${role.name}?`}
          description="Members who have it keep their workspaces, without a role: they get every tool, or none where the workspace uses tool whitelists."
          confirmLabel="Delete role"
          pendingLabel="Deleting…"
          onConfirm={async () => {
            if (!applyResult(await deleteRoleAction(role.id, version.current()), { success: `Role "${role.name}" deleted` })) return false;
            router.push(`/orgs/${orgId}/roles`);
            router.refresh();
          }}
        />
      </div>
    </div>
  );
}
