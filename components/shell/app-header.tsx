import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { ThemeToggle } from "@/components/shell/theme-toggle";

export function AppHeader({ userEmail, palette }: { userEmail: string; palette?: ReactNode }) {
  return (
    <header className="sticky top-0 z-10 flex h-14 items-center gap-3 border-b border-zinc-200 bg-white/90 px-4 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
      <Link href="/" className={cn("rounded-sm text-base font-semibold tracking-tight", focusRing)}>
        Switchboard
      </Link>
      <div className="ml-auto flex min-w-0 items-center gap-2">
        {palette}
        <span className="hidden max-w-64 truncate text-sm text-zinc-600 sm:inline dark:text-zinc-400" title="Signed in as">
          {userEmail}
        </span>
        <ThemeToggle />
        <SignOutButton />
      </div>
    </header>
  );
}
