import type { Metadata } from "next";
import Link from "next/link";
import { Layers } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { listWorkspaces } from "@/lib/workspaces/workspaces";
import { NewWorkspaceForm } from "@/app/(admin)/orgs/[orgId]/workspaces/new-workspace-form";

export const metadata: Metadata = { title: "Workspaces" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function WorkspacesPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listWorkspaces(caller, org.id, { cursor, limit: 50 });
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Workspaces"
        description="A workspace has its own members, MCP servers, skills, files and API keys. Connectors and roles are shared by the organization."
      />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={Layers} title="No workspaces yet">
          Create the first workspace below, then add MCP servers to it.
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">Workspaces of {org.name}</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Slug</TH>
                <TH>Settings</TH>
                <TH className="text-right">Open</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((w) => (
                <tr key={w.id}>
                  <TD className="font-medium">{w.name}</TD>
                  <TD className="font-mono text-xs">{w.slug}</TD>
                  <TD>
                    <span className="flex flex-wrap gap-1">
                      <Badge tone={w.knowledgeGraphEnabled ? "success" : "neutral"}>Knowledge graph {w.knowledgeGraphEnabled ? "on" : "off"}</Badge>
                      <Badge tone={w.toolWhitelistsEnabled ? "info" : "neutral"}>Tool whitelists {w.toolWhitelistsEnabled ? "on" : "off"}</Badge>
                    </span>
                  </TD>
                  <TD className="text-right whitespace-nowrap">
                    <Link className="underline-offset-2 hover:underline" href={`/w/${w.id}/servers`}>
                      Servers<span className="sr-only"> of {w.name}</span>
                    </Link>
                    {" · "}
                    <Link className="underline-offset-2 hover:underline" href={`/w/${w.id}/settings`}>
                      Settings<span className="sr-only"> of {w.name}</span>
                    </Link>
                  </TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath={`/orgs/${org.id}/workspaces`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
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
