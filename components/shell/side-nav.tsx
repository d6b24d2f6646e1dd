"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Menu, X } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { type ContextNavItem, isActiveNavItem, orgNavItems, personalNavItems, workspaceNavItems } from "@/components/shell/nav-items";
import { resolvePlace } from "@/components/shell/place";
import { PlaceSwitcher } from "@/components/shell/place-switcher";
import type { OverviewOrg } from "@/lib/shell/overview";

const ONE_YEAR = 60 * 60 * 24 * 365;

function NavLink({ item, pathname }: { item: ContextNavItem; pathname: string }) {
  const active = isActiveNavItem(item, pathname);
  const Icon = item.icon;
  return (
    <li>
      <Link
        href={item.href}
        aria-current={active ? "page" : undefined}
        className={cn(
          "flex items-center gap-2 rounded-md px-3 py-2 text-sm whitespace-nowrap transition-colors",
          active
            ? "bg-zinc-200 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-zinc-50"
            : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-zinc-100",
          focusRing,
        )}
      >
        <Icon aria-hidden className="size-4" />
        {item.label}
      </Link>
    </li>
  );
}

function NavGroup({ title, items, pathname }: { title: string; items: ContextNavItem[]; pathname: string }) {
  if (items.length === 0) return null;
  return (
    <div className="grid gap-1">
      <p className="truncate px-3 pt-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{title}</p>
      {/* On a phone the links wrap onto more lines rather than scroll out of sight. */}
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {items.map((item) => (
          <NavLink key={item.href} item={item} pathname={pathname} />
        ))}
      </ul>
    </div>
  );
}

/**
 * The admin navigation: the organization/workspace switcher, then the sections of the current
 * organization and workspace. The place shown is remembered in cookies, so short links such as
 * /connectors open the same place next time.
 */
export function SideNav({
  orgs,
  fallback,
  isInstanceOwner,
  pendingInvitations = 0,
}: {
  orgs: OverviewOrg[];
  fallback: { orgId?: string; workspaceId?: string };
  isInstanceOwner: boolean;
  pendingInvitations?: number;
}) {
  const pathname = usePathname();
  const { org, workspace } = resolvePlace(orgs, pathname, fallback);
  useEffect(() => {
    if (org) document.cookie = `sb_org=${encodeURIComponent(org.id)}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
    if (workspace) document.cookie = `sb_ws=${encodeURIComponent(workspace.id)}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
  }, [org, workspace]);
  const isAdmin = org ? org.role !== "member" : false;
  // Below md the ~24 links would fill a phone's first screen: they sit behind a menu button.
  // Open is remembered with the page it was opened on, so following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);
  const sections = useRef<HTMLDivElement>(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    // Only keys pressed in the navigation itself: the switcher's menu is portalled elsewhere and handles its own Escape.
    if (event.key !== "Escape" || !open || !sections.current?.contains(event.target as Node)) return;
    event.preventDefault();
    setOpenOn(null);
    button.current?.focus();
  };
  return (
    <nav aria-label="Main" className="grid grid-cols-1 gap-2 p-2 md:w-60 md:shrink-0 md:p-3" onKeyDown={closeOnEscape}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="main-nav-sections"
        onClick={() => setOpenOn(open ? null : pathname)}
        className={cn("flex w-fit items-center gap-2 rounded-md px-3 py-2 text-sm font-medium hover:bg-zinc-100 md:hidden dark:hover:bg-zinc-900", focusRing)}
      >
        {open ? <X aria-hidden className="size-4" /> : <Menu aria-hidden className="size-4" />}
        Menu
      </button>
      {/* Always shown from md up, as before; below md only while the menu is open. */}
      <div ref={sections} id="main-nav-sections" className={cn("grid-cols-1 gap-2 md:grid", open ? "grid" : "hidden")}>
        <PlaceSwitcher orgs={orgs} org={org} workspace={workspace} isInstanceOwner={isInstanceOwner} pathname={pathname} />
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {personalNavItems(pendingInvitations).map((item) => (
            <NavLink key={item.href} item={item} pathname={pathname} />
          ))}
        </ul>
        {org && <NavGroup title="Organization" items={orgNavItems(org.id, isAdmin)} pathname={pathname} />}
        {workspace && <NavGroup title="Workspace" items={workspaceNavItems(workspace.id, isAdmin)} pathname={pathname} />}
      </div>
    </nav>
  );
}
