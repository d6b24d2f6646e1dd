"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { GraphPicture } from "@/components/graph/graph-picture";
import type { KnowledgeGraph } from "@/lib/knowledge-graph/derive-static-graph";
import { plural } from "@/components/ui/plural";

type Layer = "all" | "derived" | "manual";

/** Layer and connector filters over the picture and its accessible list. */
export function GraphExplorer({ graph, connectors }: { graph: KnowledgeGraph; connectors: { id: string; name: string }[] }) {
  const [layer, setLayer] = useState<Layer>("all");
  const [shown, setShown] = useState(() => new Set(connectors.map((c) => c.id)));
  const entities = graph.entities.filter((e) => shown.has(e.connectorId) && (layer === "all" || e.source === layer));
  const keys = new Set(entities.map((e) => e.key));
  const relations = graph.relations.filter((r) => keys.has(r.from) && keys.has(r.to) && (layer === "all" || r.source === layer));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(shown);
    if (on) next.add(id);
    else next.delete(id);
    setShown(next);
  };
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
        <div className="grid gap-1.5">
          <Label htmlFor="graph-layer">Layer</Label>
          <Select id="graph-layer" value={layer} onChange={(e) => setLayer(e.target.value as Layer)} className="w-48">
            <option value="all">Both layers</option>
            <option value="derived">Derived from tools</option>
            <option value="manual">Manual</option>
          </Select>
        </div>
        <fieldset className="grid gap-1.5">
          <legend className="mb-1.5 text-sm font-medium">Connectors</legend>
          <div className="flex flex-wrap gap-3">
            {connectors.map((c) => (
              <div key={c.id} className="flex items-center gap-2">
                <Checkbox id={`graph-c-${c.id}`} checked={shown.has(c.id)} onCheckedChange={(on) => toggle(c.id, on === true)} />
                <Label htmlFor={`graph-c-${c.id}`} className="font-normal">
                  {c.name}
                </Label>
              </div>
            ))}
          </div>
        </fieldset>
        <p className="ml-auto text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
          {plural(entities.length, "entity")} · {plural(relations.length, "relation")}
        </p>
      </div>
      {entities.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing to show with these filters.</p>
      ) : (
        <GraphPicture entities={entities} relations={relations} connectorOrder={connectors.map((c) => c.id)} />
      )}
      <details className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer text-sm font-medium">The graph as a list</summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <section aria-label="Entities">
            <h3 className="mb-2 text-sm font-semibold">Entities</h3>
            <ul className="grid gap-1 text-sm">
              {entities.map((e) => (
                <li key={e.key}>
                  <span className="font-medium">{e.label}</span> <code className="font-mono text-xs">{e.key}</code> <Badge tone={e.source === "manual" ? "info" : "neutral"}>{e.source}</Badge>{" "}
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">{e.connectorName}</span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-label="Relations">
            <h3 className="mb-2 text-sm font-semibold">Relations</h3>
            <ul className="grid gap-1 text-sm">
              {relations.map((r) => (
                <li key={`${r.from}/${r.to}/${r.kind}`}>
                  <code className="font-mono text-xs">{r.from}</code> {r.kind} <code className="font-mono text-xs">{r.to}</code> <Badge tone={r.source === "manual" ? "info" : "neutral"}>{r.source}</Badge>
                </li>
              ))}
              {relations.length === 0 && <li className="text-zinc-500 dark:text-zinc-400">None.</li>}
            </ul>
          </section>
        </div>
      </details>
    </div>
  );
}
