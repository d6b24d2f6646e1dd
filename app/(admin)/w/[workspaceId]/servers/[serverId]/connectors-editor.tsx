"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { applyResult } from "@/components/forms/apply-result";
import { useObjectVersion } from "@/components/forms/use-object-version";
import { setServerConnectorsAction } from "@/app/(admin)/w/[workspaceId]/servers/actions";
import { plural } from "@/components/ui/plural";

interface ConnectorOption {
  id: string;
  name: string;
  /** Shown beside the name: two connectors may share a name, never a slug. */
  slug: string;
  type: "http" | "mcp";
  toolCount: number;
}

interface Props {
  serverId: string;
  orgId: string;
  assignedIds: string[];
  connectors: ConnectorOption[];
  /** The server's ETag as the page loaded it. */
  version: string;
}

/** Assigned connectors in order (move up/down, remove) and the others to add; saved together. */
export function ServerConnectorsEditor({ serverId, orgId, assignedIds, connectors, version: loaded }: Props) {
  const version = useObjectVersion(`server:${serverId}`, loaded);
  const [order, setOrder] = useState(assignedIds);
  const [pending, startTransition] = useTransition();
  const byId = new Map(connectors.map((c) => [c.id, c]));
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const unassigned = connectors.filter((c) => !order.includes(c.id));
  // An organization may have dozens of connectors: a wall of buttons is found by typing instead.
  const available = needle ? unassigned.filter((c) => c.name.toLowerCase().includes(needle) || c.slug.includes(needle)) : unassigned;
  const dirty = order.join() !== assignedIds.join();
  const move = (index: number, delta: number) =>
    setOrder((current) => {
      const next = [...current];
      const [item] = next.splice(index, 1);
      next.splice(index + delta, 0, item);
      return next;
    });
  const save = () =>
    startTransition(async () => {
      const result = await setServerConnectorsAction(serverId, { connectorIds: order }, version.current());
      version.track(result);
      applyResult(result, { success: "Connectors saved" });
    });
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <h3 className="text-sm font-medium">Assigned</h3>
        {order.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No connectors: the server publishes no tools yet. Add one below.</p>
        ) : (
          <ol className="grid gap-1">
            {order.map((id, index) => {
              const c = byId.get(id);
              const name = c?.name ?? id;
              return (
                <li key={id} className="flex flex-wrap items-center gap-2 rounded-md border border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
                  <span className="w-5 text-right text-xs text-zinc-500 dark:text-zinc-400 tabular-nums">{index + 1}.</span>
                  <span className="font-medium">{name}</span>
                  {c && <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.slug}</span>}
                  {c && <Badge>{c.type === "mcp" ? "MCP" : "HTTP"}</Badge>}
                  {c && <span className="text-xs text-zinc-500 dark:text-zinc-400">{plural(c.toolCount, "tool")}</span>}
                  <span className="ml-auto flex gap-1">
                    <Button type="button" variant="ghost" size="icon" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                      <ArrowUp aria-hidden />
                    </Button>
                    <Button type="button" variant="ghost" size="icon" aria-label={`Move ${name} down`} disabled={index === order.length - 1} onClick={() => move(index, 1)}>
                      <ArrowDown aria-hidden />
                    </Button>
                    <Button type="button" variant="ghost" size="icon" aria-label={`Unassign ${name}`} onClick={() => setOrder(order.filter((x) => x !== id))}>
                      <X aria-hidden />
                    </Button>
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </div>
      <div className="grid gap-2">
        <h3 className="text-sm font-medium">Available in the organization</h3>
        {unassigned.length > 0 && (
          <Input type="search" aria-label="Search connectors to assign" placeholder="Search connectors…" value={query} onChange={(e) => setQuery(e.target.value)} className="max-w-sm" />
        )}
        {available.length === 0 ? (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {connectors.length === 0 ? (
              <>
                No connectors yet. <Link className="underline" href={`/orgs/${orgId}/connectors`}>Add one</Link>.
              </>
            ) : unassigned.length > 0 ? (
              `No unassigned connector matches “${query.trim()}”.`
            ) : (
              "Every connector is assigned."
            )}
          </p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {available.map((c) => (
              <li key={c.id}>
                <Button type="button" variant="outline" size="sm" onClick={() => setOrder([...order, c.id])} aria-label={`Assign ${c.name} (${c.slug})`}>
                  <Plus aria-hidden />
                  {c.name}
                  <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{c.slug}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex items-center gap-3">
        <Button type="button" onClick={save} disabled={!dirty || pending}>
          {pending ? "Saving…" : "Save connectors"}
        </Button>
        {dirty && <span className="text-sm text-zinc-600 dark:text-zinc-400">Unsaved changes</span>}
      </div>
    </div>
  );
}
