"use client";

import { Command } from "cmdk";
import { Search } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import type { ActionResult } from "@/components/forms/action-result";
import { orgNavItems, personalNavItems, workspaceNavItems } from "@/components/shell/nav-items";
import type { OverviewOrg } from "@/lib/shell/overview";
import type { PaletteObject } from "@/lib/shell/palette-objects";

interface Target {
  key: string;
  label: string;
  hint?: string;
  href: string;
}

/** Every page of the navigation, in every organization and workspace the person has. */
function pageTargets(orgs: OverviewOrg[]): Target[] {
  const own = personalNavItems(0).map((i) => ({ key: `page:${i.href}`, label: i.label, href: i.href }));
  const places = orgs.flatMap((org) => {
    const isAdmin = org.role !== "member";
    const orgPages = orgNavItems(org.id, isAdmin).map((i) => ({ key: `page:${i.href}`, label: i.label, hint: org.name, href: i.href }));
    const wsPages = org.workspaces.flatMap((w) => [
      { key: `page:/w/${w.id}`, label: `Workspace ${w.name}`, hint: org.name, href: `/w/${w.id}` },
      ...workspaceNavItems(w.id, isAdmin).map((i) => ({ key: `page:${i.href}`, label: i.label, hint: `${org.name} › ${w.name}`, href: i.href })),
    ]);
    return [...(isAdmin ? [{ key: `page:/orgs/${org.id}`, label: `Organization ${org.name}`, href: `/orgs/${org.id}` }] : []), ...orgPages, ...wsPages];
  });
  return [...own, ...places];
}

const itemClass = "flex min-w-0 cursor-pointer items-baseline gap-2 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-zinc-100 dark:data-[selected=true]:bg-zinc-800";
const groupClass = "[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-zinc-600 dark:[&_[cmdk-group-heading]]:text-zinc-400";

function TargetItem({ target, onPick }: { target: Target; onPick: (href: string) => void }) {
  return (
    <Command.Item value={`${target.label} ${target.hint ?? ""} ${target.key}`} onSelect={() => onPick(target.href)} className={itemClass}>
      <span className="truncate">{target.label}</span>
      {target.hint && <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">{target.hint}</span>}
    </Command.Item>
  );
}

/**
 * Ctrl/Cmd-K anywhere in the console: type to jump to any page, server or connector, arrows
 * and Enter to go, Escape to close ("a command palette (`cmdk`) to jump anywhere"). The
 * objects are read once, when it first opens, through the server action the layout hands in.
 */
export function CommandPalette({ orgs, loadObjects }: { orgs: OverviewOrg[]; loadObjects: () => Promise<ActionResult<PaletteObject[]>> }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [objects, setObjects] = useState<PaletteObject[] | null>(null);
  const pages = useMemo(() => pageTargets(orgs), [orgs]);
  // Opened by Ctrl/Cmd-K from a field or button: where focus goes back when it closes (else its trigger).
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        const active = document.activeElement;
        if (!active?.closest('[role="dialog"]')) returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
        setOpen((was) => !was);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (!open || objects) return;
    void loadObjects().then((result) => setObjects(result.ok ? result.data : []));
  }, [open, objects, loadObjects]);

  const pick = useCallback(
    (href: string) => {
      setOpen(false);
      router.push(href);
    },
    [router],
  );
  const servers = (objects ?? []).filter((o) => o.kind === "server");
  const connectors = (objects ?? []).filter((o) => o.kind === "connector");
  const asTarget = (o: PaletteObject): Target => ({ key: `${o.kind}:${o.id}`, label: o.name, hint: o.place, href: o.href });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* The dialog's Radix trigger: closing the palette (Escape, Close, a pick) puts focus back on it. */}
      <DialogTrigger asChild>
        <button
          type="button"
          onClick={() => (returnTo.current = null)}
          className={cn("flex items-center gap-2 rounded-md border border-zinc-300 px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800", focusRing)}
          aria-keyshortcuts="Control+K Meta+K"
        >
          <Search aria-hidden className="size-4" />
          <span className="hidden sm:inline">Jump to…</span>
          <span className="sr-only sm:hidden">Jump to a page</span>
          <kbd className="hidden rounded border border-zinc-300 px-1 font-mono text-xs sm:inline dark:border-zinc-600">Ctrl K</kbd>
        </button>
      </DialogTrigger>
      <DialogContent
        title="Jump to"
        className="max-w-xl gap-2 p-4"
        onCloseAutoFocus={(e) => {
          const back = returnTo.current;
          returnTo.current = null;
          if (!back?.isConnected) return;
          e.preventDefault();
          back.focus();
        }}
      >
        <Command label="Jump to a page, server or connector" className="grid gap-2">
          <Command.Input
            autoFocus
            placeholder="Type a page, server or connector…"
            aria-label="Page, server or connector"
            className={cn("h-10 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm dark:border-zinc-700 dark:bg-zinc-950", focusRing)}
          />
          <Command.List label="Places" className="max-h-[60dvh] overflow-y-auto">
            <Command.Empty className="px-3 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">Nothing by that name.</Command.Empty>
            <Command.Group heading="Pages" className={groupClass}>
              {pages.map((t) => <TargetItem key={t.key} target={t} onPick={pick} />)}
            </Command.Group>
            {servers.length > 0 && (
              <Command.Group heading="MCP servers" className={groupClass}>
                {servers.map((o) => <TargetItem key={`${o.kind}:${o.id}:${o.href}`} target={asTarget(o)} onPick={pick} />)}
              </Command.Group>
            )}
            {connectors.length > 0 && (
              <Command.Group heading="Connectors" className={groupClass}>
                {connectors.map((o) => <TargetItem key={`${o.kind}:${o.id}`} target={asTarget(o)} onPick={pick} />)}
              </Command.Group>
            )}
            {objects === null && <Command.Loading label="Loading servers and connectors" />}
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
