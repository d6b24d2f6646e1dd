"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

/** Section links of one object's pages (a nav of links, marked with aria-current, not ARIA tabs). */
export function SubNav({ label, items }: { label: string; items: { href: string; label: string; exact?: boolean }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="border-b border-zinc-200 dark:border-zinc-800">
      {/* Wraps on a phone: a row of links that scrolled sideways widened the whole page. */}
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {items.map((item) => {
          const path = item.href.split("?")[0];
          const active = item.exact ? pathname === path : pathname === path || pathname.startsWith(`${path}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-block border-b-2 px-3 py-2 text-sm whitespace-nowrap",
                  active
                    ? "border-zinc-900 font-medium text-zinc-900 dark:border-zinc-100 dark:text-zinc-100"
                    : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
                  focusRing,
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
