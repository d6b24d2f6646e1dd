import type { Metadata } from "next";
import Link from "next/link";
import { Server } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requestBaseUrl, requireWorkspace } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listServers } from "@/lib/servers/servers";
import { ServerListQuery } from "@/lib/servers/schemas";
import { listConnectors } from "@/lib/connectors/connectors";
import { NewServerForm } from "@/app/(admin)/w/[workspaceId]/servers/new-server-form";

export const metadata: Metadata = { title: "MCP servers" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "endpoint", header: "Endpoint", wide: true, className: "font-mono text-xs break-all" },
  { id: "connectors", header: "Connectors", className: "text-right tabular-nums" },
];

export default async function ServersPage({ params, searchParams }: Props) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const query = readListParams(ServerListQuery, await searchParams);
  const [page, connectors] = await Promise.all([
    listServers(caller, workspace.id, query, await requestBaseUrl()),
    listConnectors(caller, org.id, { limit: 200 }),
  ]);
  const options = connectors.items.map((c) => ({ id: c.id, name: c.name, slug: c.slug, type: c.type, toolCount: c.tools.length }));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="MCP servers" description={`Endpoints MCP clients connect to, in ${workspace.name}. Each publishes the tools of the connectors assigned to it.`} />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={Server} title="No MCP servers yet">
          {options.length === 0 ? (
            <>
              Start with a connector: <Link className="underline" href={`/orgs/${org.id}/connectors`}>add one</Link>, then create a server below and assign it.
            </>
          ) : (
            "Create a server below, assign connectors, then give its URL and an API key to your MCP client."
          )}
        </EmptyState>
      ) : (
        <DataTable
          caption={`MCP servers of ${workspace.name}`}
          columns={COLUMNS}
          rows={page.items.map((s): DataRow => ({
            id: s.id,
            label: s.name,
            cells: {
              name: (
                <Link className="font-medium underline-offset-2 hover:underline" href={`/w/${workspace.id}/servers/${s.id}`}>
                  {s.name}
                </Link>
              ),
              endpoint: s.url,
              connectors: s.connectorIds.length,
            },
          }))}
          nextCursor={page.nextCursor}
          searchLabel="Search servers"
        />
      )}
      <Card aria-labelledby="new-server-title">
        <CardHeader>
          <CardTitle id="new-server-title">New MCP server</CardTitle>
          <CardDescription>You can change its connectors and instructions later.</CardDescription>
        </CardHeader>
        <CardContent>
          <NewServerForm workspaceId={workspace.id} connectors={options} orgId={org.id} />
        </CardContent>
      </Card>
    </div>
  );
}
