import type { Metadata } from "next";
import { AppWindow } from "lucide-react";
import { ConnectedAppsTable } from "@/components/oauth/connected-apps-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { RevokeAppButton } from "@/app/(admin)/me/connected-apps/revoke-app-button";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { ConnectedAppListQuery } from "@/lib/oauth/endpoints";
import { listOrgConnectedApps } from "@/lib/oauth/connected-apps";

export const metadata: Metadata = { title: "Connected apps" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Every MCP app anyone allowed by OAuth in this organization: for its admins to see and revoke. */
export default async function OrgConnectedAppsPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const orgId = org.id;
  const query = readListParams(ConnectedAppListQuery, await searchParams);
  const page = await listOrgConnectedApps(caller, orgId, query);
  const place = new Map(org.workspaces.map((w) => [w.id, w.name] as const));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="Connected apps" description="The apps the members of this organization allowed to use its MCP servers as them. Revoking one stops it on its next request." />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={AppWindow} title="No connected apps">
          Apps members connect by URL appear here once they allow them.
        </EmptyState>
      ) : (
        <ConnectedAppsTable apps={page.items} nextCursor={page.nextCursor} showUser place={(app) => place.get(app.workspaceId) ?? "a workspace"} revoke={(app) => <RevokeAppButton app={app} />} />
      )}
    </div>
  );
}
