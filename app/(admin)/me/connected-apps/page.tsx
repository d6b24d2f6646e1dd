import type { Metadata } from "next";
import { AppWindow } from "lucide-react";
import { ConnectedAppsTable } from "@/components/oauth/connected-apps-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { RevokeAppButton } from "@/app/(admin)/me/connected-apps/revoke-app-button";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { ConnectedAppListQuery } from "@/lib/oauth/endpoints";
import { listMyConnectedApps } from "@/lib/oauth/connected-apps";

export const metadata: Metadata = { title: "Connected apps" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The MCP apps (Claude, ChatGPT, Cursor…) the signed-in person allowed by OAuth, in every organization. */
export default async function MyConnectedAppsPage({ searchParams }: Props) {
  const { caller, orgs } = await loadViewer();
  const query = readListParams(ConnectedAppListQuery, await searchParams);
  const page = await listMyConnectedApps(caller, query);
  const place = new Map(orgs.flatMap((o) => o.workspaces.map((w) => [w.id, `${o.name} / ${w.name}`] as const)));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="Connected apps" description="The apps you allowed to use MCP servers as you, and which servers each may reach. Revoke any you no longer use." />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={AppWindow} title="No connected apps">
          Apps you connect by URL (Claude, ChatGPT, Cursor, Claude Code) appear here once you allow them.
        </EmptyState>
      ) : (
        <ConnectedAppsTable apps={page.items} nextCursor={page.nextCursor} showUser={false} place={(app) => place.get(app.workspaceId) ?? "a workspace"} revoke={(app) => <RevokeAppButton app={app} />} />
      )}
    </div>
  );
}
