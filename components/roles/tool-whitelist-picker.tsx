"use client";

import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export interface PickerConnector {
  id: string;
  name: string;
  type: "http" | "mcp";
  tools: { name: string; description: string }[];
}

export const toolKey = (connectorId: string, tool: string) => `${connectorId}\u0000${tool}`;

interface Props {
  connectors: PickerConnector[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  /** What is picked, in the labels ("tool" by default; "prompt" for a role's prompt whitelist). */
  noun?: "tool" | "prompt";
}

/**
 * A tool whitelist picker: tools grouped by connector, a select-all checkbox per connector
 * (mixed when some are chosen) and a search box over tool names and descriptions. Select-all
 * acts on the tools the search shows.
 */
export function ToolWhitelistPicker({ connectors, selected, onChange, noun = "tool" }: Props) {
  const [query, setQuery] = useState("");
  const baseId = useId();
  const needle = query.trim().toLowerCase();
  const groups = connectors
    .map((c) => ({
      connector: c,
      tools: needle ? c.tools.filter((t) => `${c.name} ${t.name} ${t.description}`.toLowerCase().includes(needle)) : c.tools,
    }))
    .filter((g) => g.tools.length > 0);
  const setMany = (keys: string[], on: boolean) => {
    const next = new Set(selected);
    for (const k of keys) {
      if (on) next.add(k);
      else next.delete(k);
    }
    onChange(next);
  };
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Input type="search" aria-label={`Search ${noun}s`} placeholder={`Search ${noun}s…`} value={query} onChange={(e) => setQuery(e.target.value)} className="max-w-sm" />
        <span className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
          {selected.size} {noun}{selected.size === 1 ? "" : "s"} selected
        </span>
      </div>
      {groups.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{connectors.length === 0 ? "The organization has no connectors yet." : `No ${noun} matches “${query}”.`}</p>
      )}
      {groups.map(({ connector, tools }, gi) => {
        const keys = tools.map((t) => toolKey(connector.id, t.name));
        const chosen = keys.filter((k) => selected.has(k)).length;
        const groupId = `${baseId}-g${gi}`;
        return (
          <fieldset key={connector.id} className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
            <legend className="sr-only">{connector.name}</legend>
            <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 pb-2 dark:border-zinc-800">
              <Checkbox
                id={`${groupId}-all`}
                checked={chosen === keys.length ? true : chosen > 0 ? "indeterminate" : false}
                onCheckedChange={() => setMany(keys, chosen !== keys.length)}
              />
              <Label htmlFor={`${groupId}-all`} className="font-semibold">
                {connector.name}
                <span className="sr-only">: select all{needle ? " shown" : ""} {noun}s</span>
              </Label>
              <Badge>{connector.type === "mcp" ? "MCP" : "HTTP"}</Badge>
              <span className="ml-auto text-xs text-zinc-500 dark:text-zinc-400 tabular-nums">
                {chosen}/{keys.length}
              </span>
            </div>
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {tools.map((tool, ti) => {
                const key = toolKey(connector.id, tool.name);
                const id = `${groupId}-t${ti}`;
                return (
                  <li key={tool.name} className="flex items-start gap-2 rounded px-1 py-1">
                    <Checkbox id={id} className="mt-0.5" checked={selected.has(key)} onCheckedChange={(on) => setMany([key], on === true)} />
                    <Label htmlFor={id} className="grid gap-0.5 font-normal">
                      <span className="font-mono text-sm">{tool.name}</span>
                      {tool.description && <span className="line-clamp-2 text-xs text-zinc-500 dark:text-zinc-400">{tool.description}</span>}
                    </Label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        );
      })}
    </div>
  );
}
