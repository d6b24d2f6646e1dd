import type { Metadata } from "next";
import { AppWindow } from "lucide-react";
import { ConnectedAppsTable } from "@/components/oauth/connected-apps-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { cursorParam, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { RevokeAppButton } from "@/app/(admin)/me/connected-apps/revoke-app-button";
import { listOrgConnectedApps } from "@/lib/oauth/connected-apps";

export const metadata: Metadata = { title: "Connected apps" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Every MCP app anyone allowed by OAuth in this organization: for its admins to see and revoke. */
export default async function OrgConnectedAppsPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const orgId = org.id;
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listOrgConnectedApps(caller, orgId, { cursor, limit: 50 });
  const place = new Map(org.workspaces.map((w) => [w.id, w.name] as const));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="Connected apps" description="The apps the members of this organization allowed to use its MCP servers as them. Revoking one stops it on its next request." />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={AppWindow} title="No connected apps">
          Apps members connect by URL appear here once they allow them.
        </EmptyState>
      ) : (
        <div>
          <ConnectedAppsTable apps={page.items} showUser place={(app) => place.get(app.workspaceId) ?? "a workspace"} revoke={(app) => <RevokeAppButton app={app} />} />
          <Pagination basePath={`/orgs/${orgId}/connected-apps`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
    </div>
  );
}
