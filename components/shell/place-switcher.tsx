"use client";

import Link from "next/link";
import { Check, ChevronsUpDown, Plus } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { placeOfPath } from "@/components/shell/nav-items";
import type { OverviewOrg, OverviewWorkspace } from "@/lib/shell/overview";

const itemClass = cn(
  "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm outline-none select-none",
  "data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800",
);

/** The same section in another org/workspace when the URL is about one (`/w/A/skills` → `/w/B/skills`). */
function targetHref(pathname: string, kind: "org" | "workspace", id: string, fallbackRest: string): string {
  const place = placeOfPath(pathname);
  const sameKind = kind === "org" ? place.orgId !== undefined : place.workspaceId !== undefined;
  const section = sameKind ? (place.rest.split("/")[1] ?? "") : "";
  const rest = section ? `/${section}` : fallbackRest;
  return kind === "org" ? `/orgs/${id}${rest}` : `/w/${id}${rest}`;
}

interface Props {
  orgs: OverviewOrg[];
  org: OverviewOrg | null;
  workspace: OverviewWorkspace | null;
  isInstanceOwner: boolean;
  pathname: string;
}

/** Chooses the organization and workspace the admin pages show (keyboard: arrows, Enter, Escape). */
export function PlaceSwitcher({ orgs, org, workspace, isInstanceOwner, pathname }: Props) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className={cn(
          "flex w-full items-center justify-between gap-2 rounded-md border border-zinc-300 bg-white px-3 py-2 text-left text-sm dark:border-zinc-700 dark:bg-zinc-900",
          focusRing,
        )}
        aria-label={`Switch organization or workspace (current: ${org?.name ?? "none"}${workspace ? ` / ${workspace.name}` : ""})`}
      >
        <span className="min-w-0">
          <span className="block truncate font-medium" title={org?.name}>
            {org?.name ?? "No organization"}
          </span>
          <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400" title={workspace?.name}>
            {workspace?.name ?? "No workspace"}
          </span>
        </span>
        <ChevronsUpDown aria-hidden className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-[70dvh] w-[min(24rem,calc(100vw-1rem))] overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 text-zinc-900 shadow-lg dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          {orgs.map((o, index) => (
            <DropdownMenu.Group key={o.id}>
              {index > 0 && <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />}
              <DropdownMenu.Item asChild className={cn(itemClass, "font-medium")}>
                <Link href={targetHref(pathname, "org", o.id, o.role === "member" ? "" : "/connectors")}>
                  {o.id === org?.id ? <Check aria-hidden className="size-4" /> : <span aria-hidden className="size-4" />}
                  <span className="min-w-0 truncate" title={o.name}>
                    {o.name}
                  </span>
                  <span className="ml-auto shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{o.role}</span>
                </Link>
              </DropdownMenu.Item>
              {o.workspaces.map((w) => (
                <DropdownMenu.Item key={w.id} asChild className={cn(itemClass, "pl-8")}>
                  <Link href={targetHref(pathname, "workspace", w.id, o.role === "member" ? "/api-keys" : "/servers")}>
                    {w.id === workspace?.id ? <Check aria-hidden className="size-4" /> : <span aria-hidden className="size-4" />}
                    <span className="min-w-0 truncate" title={w.name}>
                      {w.name}
                    </span>
                  </Link>
                </DropdownMenu.Item>
              ))}
              {o.role !== "member" && (
                <DropdownMenu.Item asChild className={cn(itemClass, "pl-8 text-zinc-600 dark:text-zinc-400")}>
                  <Link href={`/orgs/${o.id}/workspaces#new-workspace`}>
                    <Plus aria-hidden className="size-4" />
                    New workspace
                  </Link>
                </DropdownMenu.Item>
              )}
            </DropdownMenu.Group>
          ))}
          {isInstanceOwner && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
              <DropdownMenu.Item asChild className={itemClass}>
                <Link href="/orgs/new">
                  <Plus aria-hidden className="size-4" />
                  New organization
                </Link>
              </DropdownMenu.Item>
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
