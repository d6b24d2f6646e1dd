"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SearchX } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { allNavItems, isActiveNavItem } from "@/components/shell/nav-items";

/**
 * The section of the console a missing page sits in (its list: "MCP servers" for
 * /w/<id>/servers/<missing>), read from the address alone: a not-found page gets no params.
 * None when the address is the section itself or in no section (then only the overview is offered).
 */
function sectionOf(pathname: string): { href: string; label: string } | undefined {
  const orgId = /^\/orgs\/([^/]+)/.exec(pathname)?.[1];
  const workspaceId = /^\/w\/([^/]+)/.exec(pathname)?.[1];
  return allNavItems(orgId, workspaceId, true)
    .filter((item) => item.href !== "/" && item.href !== pathname && isActiveNavItem(item, pathname))
    .sort((a, b) => b.href.length - a.href.length)[0];
}

/**
 * What a console address that leads nowhere shows, inside the console's shell: said in the
 * user's words (the thing may have been deleted, or the link mistyped), with links back.
 */
export function NotFoundMessage() {
  const section = sectionOf(usePathname() ?? "/");
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <EmptyState
        icon={SearchX}
        title="There is nothing at this address"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            {section && (
              <Link href={section.href} className={buttonVariants({ variant: "primary" })}>
                Back to {section.label}
              </Link>
            )}
            <Link href="/" className={buttonVariants({ variant: section ? "outline" : "primary" })}>
              Go to the overview
            </Link>
          </div>
        }
      >
        The page, or the server, connector or other object it shows, does not exist. It may have been deleted, the link may be mistyped, or it
        belongs to an organization you are not in.
      </EmptyState>
    </div>
  );
}
