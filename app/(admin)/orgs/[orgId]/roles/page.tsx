import type { Metadata } from "next";
import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { listRoles } from "@/lib/roles/roles";
import { RoleListQuery } from "@/lib/roles/schemas";
import { NewRoleForm } from "@/app/(admin)/orgs/[orgId]/roles/new-role-form";

export const metadata: Metadata = { title: "MCP roles" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "tools", header: "Tools", className: "text-right tabular-nums" },
  { id: "connectors", header: "Connectors", className: "text-right tabular-nums" },
];

export default async function RolesPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const query = readListParams(RoleListQuery, await searchParams);
  const page = await listRoles(caller, org.id, query);
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="MCP roles"
        description="A role is a whitelist of connector tools. Give workspace members a role on the workspace's Members page; they then get only those tools (and only those connectors' instructions and resources)."
      />
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={ShieldCheck} title="No MCP roles yet">
          Create a role below, pick its tools, then give it to members of a workspace. Without roles, members get every tool unless the workspace uses tool whitelists.
        </EmptyState>
      ) : (
        <DataTable
          caption={`MCP roles of ${org.name}`}
          columns={COLUMNS}
          rows={page.items.map((r): DataRow => ({
            id: r.id,
            label: r.name,
            cells: {
              name: (
                <Link className="font-medium underline-offset-2 hover:underline" href={`/orgs/${org.id}/roles/${r.id}`}>
                  {r.name}
                </Link>
              ),
              tools: r.tools.length,
              connectors: new Set(r.tools.map((t) => t.connectorId)).size,
            },
          }))}
          nextCursor={page.nextCursor}
          searchLabel="Search roles"
        />
      )}
      <Card aria-labelledby="new-role-title">
        <CardHeader>
          <CardTitle id="new-role-title">New role</CardTitle>
          <CardDescription>Name it; pick its tools on the next page.</CardDescription>
        </CardHeader>
        <CardContent>
          <NewRoleForm orgId={org.id} />
        </CardContent>
      </Card>
    </div>
  );
}
