import type { Metadata } from "next";
import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cursorParam, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { listRoles } from "@/lib/roles/roles";
import { NewRoleForm } from "@/app/(admin)/orgs/[orgId]/roles/new-role-form";

export const metadata: Metadata = { title: "MCP roles" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RolesPage({ params, searchParams }: Props) {
  const { org, caller } = await requireOrgAdmin((await params).orgId);
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listRoles(caller, org.id, { cursor, limit: 50 });
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="MCP roles"
        description="A role is a whitelist of connector tools. Give workspace members a role on the workspace's Members page; they then get only those tools (and only those connectors' instructions and resources)."
      />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={ShieldCheck} title="No MCP roles yet">
          Create a role below, pick its tools, then give it to members of a workspace. Without roles, members get every tool unless the workspace uses tool whitelists.
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">MCP roles of {org.name}</caption>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH className="text-right">Tools</TH>
                <TH className="text-right">Connectors</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((r) => (
                <tr key={r.id}>
                  <TD>
                    <Link className="font-medium underline-offset-2 hover:underline" href={`/orgs/${org.id}/roles/${r.id}`}>
                      {r.name}
                    </Link>
                  </TD>
                  <TD className="text-right tabular-nums">{r.tools.length}</TD>
                  <TD className="text-right tabular-nums">{new Set(r.tools.map((t) => t.connectorId)).size}</TD>
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination basePath={`/orgs/${org.id}/roles`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
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
