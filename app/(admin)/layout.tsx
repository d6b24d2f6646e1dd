import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { Breadcrumbs } from "@/components/shell/breadcrumbs";
import { SideNav } from "@/components/shell/side-nav";
import { CommandPalette } from "@/components/shell/command-palette";
import { listPaletteObjectsAction } from "@/app/(admin)/_lib/palette-actions";
import { Toaster } from "@/components/ui/toaster";
import { currentPlace, loadViewer } from "@/app/(admin)/_lib/context";
import { countMyInvitations } from "@/lib/invitations/answer-invitation";

/**
 * Every admin page sits in this shell. proxy.ts already turns away requests without a session
 * cookie; this re-check (loadViewer) also catches accounts deleted since the cookie was issued.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const { user, orgs, caller } = await loadViewer();
  const [place, pendingInvitations] = await Promise.all([currentPlace(), countMyInvitations(caller)]);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-20 dark:bg-zinc-900"
      >
        Skip to content
      </a>
      <AppHeader userEmail={user.email} palette={<CommandPalette orgs={orgs} loadObjects={listPaletteObjectsAction} />} />
      <div className="flex flex-1 flex-col md:flex-row">
        {/* From md up the sidebar stays in place while a long page scrolls (below the 3.5rem header). */}
        <aside className="min-w-0 border-b border-zinc-200 md:sticky md:top-14 md:h-[calc(100dvh-3.5rem)] md:self-start md:overflow-y-auto md:border-r md:border-b-0 dark:border-zinc-800">
          <SideNav
            orgs={orgs}
            fallback={{ orgId: place.org?.id, workspaceId: place.workspace?.id }}
            isInstanceOwner={user.isInstanceOwner}
            pendingInvitations={pendingInvitations}
          />
        </aside>
        {/* Long unbroken text (a URI in a hint, a name) wraps instead of widening the page on a phone; tables keep theirs and scroll. */}
        <main id="main" className="min-w-0 flex-1 p-4 [overflow-wrap:anywhere] md:p-8">
          <Breadcrumbs orgs={orgs} />
          {children}
        </main>
      </div>
      <Toaster />
    </div>
  );
}
