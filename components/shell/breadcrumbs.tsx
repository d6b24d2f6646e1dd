"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { ChevronRight } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { allNavItems, isActiveNavItem, placeOfPath } from "@/components/shell/nav-items";
import type { OverviewOrg } from "@/lib/shell/overview";

interface Crumb {
  href: string;
  label: string;
}

/** Organization (and workspace) of the URL, the section, and the section's page when deeper. */
export function breadcrumbsFor(orgs: OverviewOrg[], pathname: string): Crumb[] {
  const { orgId, workspaceId } = placeOfPath(pathname);
  const org = orgs.find((o) => o.id === orgId || o.workspaces.some((w) => w.id === workspaceId));
  const workspace = org?.workspaces.find((w) => w.id === workspaceId);
  if (!org) return [];
  // /orgs/<id> and /w/<id> open the first page this person may see there.
  const crumbs: Crumb[] = [{ href: `/orgs/${org.id}`, label: org.name }];
  if (workspace) crumbs.push({ href: `/w/${workspace.id}`, label: workspace.name });
  const section = allNavItems(org.id, workspace?.id, org.role !== "member").find((item) => item.href !== "/" && isActiveNavItem(item, pathname));
  if (section) crumbs.push({ href: section.href, label: section.label });
  return crumbs;
}

/** The trail above every page of an organization or workspace; each step links back. */
export function Breadcrumbs({ orgs }: { orgs: OverviewOrg[] }) {
  const pathname = usePathname();
  const crumbs = breadcrumbsFor(orgs, pathname);
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="mx-auto mb-4 max-w-6xl">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-zinc-600 dark:text-zinc-400">
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1 && crumb.href === pathname;
          return (
            <li key={crumb.href} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden className="size-3.5 shrink-0" />}
              <Link
                href={crumb.href}
                aria-current={current ? "page" : undefined}
                title={crumb.label}
                className={cn("max-w-64 truncate rounded-sm hover:text-zinc-900 hover:underline dark:hover:text-zinc-100", current && "font-medium text-zinc-900 dark:text-zinc-100", focusRing)}
              >
                {crumb.label}
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
