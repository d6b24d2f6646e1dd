import type { Metadata } from "next";
import Link from "next/link";
import { Layers } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listWorkspaces, type WorkspaceView } from "@/lib/workspaces/workspaces";
import { WorkspaceListQuery } from "@/lib/workspaces/schemas";
import { NewWorkspaceForm } from "@/app/(admin)/orgs/[orgId]/workspaces/new-workspace-form";

export const metadata: Metadata = { title: "Workspaces" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "slug", header: "Slug", sortable: true, wide: true, className: "font-mono text-xs" },
  { id: "settings", header: "Settings", wide: true },
  { id: "createdAt", header: "Created", sortable: true, wide: true, className: "text-xs whitespace-nowrap" },
  { id: "open", header: "Open", className: "text-right" },
];

function workspaceRow(w: WorkspaceView): DataRow {
  return {
    id: w.id,
    label: w.name,
    cells: {
      name: <span className="font-medium break-words">{w.name}</span>,
      slug: w.slug,
      settings: (
        <span className="flex flex-wrap gap-1">
          <Badge tone={w.knowledgeGraphEnabled ? "success" : "neutral"}>Knowledge graph {w.knowledgeGraphEnabled ? "on" : "off"}</Badge>
          <Badge tone={w.toolWhitelistsEnabled ? "info" : "neutral"}>Tool whitelists {w.toolWhitelistsEnabled ? "on" : "off"}</Badge>
        </span>
      ),
      createdAt: <time dateTime={w.createdAt.toISOString()}>{w.createdAt.toISOString().slice(0, 10)}</time>,
      open: (
        <span className="whitespace-nowrap">
          <Link className="underline-offset-2 hover:underline" href={`/w/${w.id}/servers`}>
            Servers<span className="sr-only"> of {w.name}</span>
          </Link>
          {" · "}
          <Link className="underline-offset-2 hover:underline" href={`/w/${w.id}/settings`}>
            Settings<span className="sr-only"> of {w.name}</span>
          </Link>
        </span>
      ),
    },
  };
}

export default async function WorkspacesPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const query = readListParams(WorkspaceListQuery, await searchParams);
  const page = await listWorkspaces(caller, org.id, query);
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Workspaces"
        description="A workspace has its own members, MCP servers, skills, files and API keys. Connectors and roles are shared by the organization."
      />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={Layers} title="No workspaces yet">
          Create the first workspace below, then add MCP servers to it.
        </EmptyState>
      ) : (
        <DataTable
          caption={`Workspaces of ${org.name}`}
          columns={COLUMNS}
          rows={page.items.map(workspaceRow)}
          nextCursor={page.nextCursor}
          searchLabel="Search workspaces"
        />
      )}
      <Card id="new-workspace" aria-labelledby="new-workspace-title">
        <CardHeader>
          <CardTitle id="new-workspace-title">New workspace</CardTitle>
          <CardDescription>You can change the name, slug and settings later.</CardDescription>
        </CardHeader>
        <CardContent>
          <NewWorkspaceForm orgId={org.id} />
        </CardContent>
      </Card>
    </div>
  );
}
