import type { Metadata } from "next";
import Link from "next/link";
import { Users } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { cursorParam, requireWorkspace } from "@/app/(admin)/_lib/context";
import { listWorkspaceMembers } from "@/lib/workspaces/members";
import { listOrgMembers } from "@/lib/orgs/members";
import { listRoles } from "@/lib/roles/roles";
import { AddWorkspaceMemberForm } from "@/app/(admin)/w/[workspaceId]/members/add-workspace-member-form";
import { McpRoleSelect, RemoveWorkspaceMemberButton } from "@/app/(admin)/w/[workspaceId]/members/workspace-member-controls";

export const metadata: Metadata = { title: "Workspace members" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function WorkspaceMembersPage({ params, searchParams }: Props) {
  const { workspace, org, caller } = await requireWorkspace((await params).workspaceId, { admin: true });
  const cursor = cursorParam((await searchParams).cursor);
  const [page, orgMembers, roles] = await Promise.all([
    listWorkspaceMembers(caller, workspace.id, { cursor, limit: 50 }),
    listOrgMembers(caller, org.id, { limit: 200 }),
    listRoles(caller, org.id, { limit: 200 }),
  ]);
  const roleOptions = roles.items.map((r) => ({ id: r.id, name: r.name }));
  const orgRoleOf = new Map(orgMembers.items.map((m) => [m.userId, m.role]));
  const inWorkspace = new Set(page.items.map((m) => m.userId));
  const candidates = orgMembers.items.filter((m) => !inWorkspace.has(m.userId)).map((m) => ({ userId: m.userId, label: m.name ? `${m.name} (${m.email})` : m.email }));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Members"
        description={
          <>
            A member&apos;s MCP role decides which tools they get on this workspace&apos;s servers. Without a role they get{" "}
            every tool, or none when the workspace uses tool whitelists (<Link className="underline" href={`/w/${workspace.id}/settings`}>settings</Link>).
            Organization owners and admins always get every tool.
          </>
        }
      />
      {page.items.length === 0 && !cursor ? (
        <EmptyState icon={Users} title="Nobody works in this workspace yet">
          Add organization members below. To invite someone new, add them on the organization&apos;s{" "}
          <Link className="underline" href={`/orgs/${org.id}/members`}>Members</Link> page first.
        </EmptyState>
      ) : (
        <div>
          <Table>
            <caption className="sr-only">Members of {workspace.name}</caption>
            <THead>
              <tr>
                <TH>Person</TH>
                <TH>MCP role</TH>
                <TH className="text-right">Remove</TH>
              </tr>
            </THead>
            <TBody>
              {page.items.map((m) => {
                const label = m.name ?? m.email;
                const orgRole = orgRoleOf.get(m.userId);
                return (
                  <tr key={m.id}>
                    <TD>
                      <span className="font-medium">{label}</span>
                      {m.name && <span className="block text-xs text-zinc-500 dark:text-zinc-400">{m.email}</span>}
                      {orgRole && orgRole !== "member" && <Badge className="mt-1">org {orgRole}: every tool</Badge>}
                    </TD>
                    <TD>
                      <McpRoleSelect workspaceId={workspace.id} member={{ userId: m.userId, label, mcpRoleId: m.mcpRoleId }} roles={roleOptions} />
                    </TD>
                    <TD className="text-right">
                      <RemoveWorkspaceMemberButton workspaceId={workspace.id} member={{ userId: m.userId, label }} />
                    </TD>
                  </tr>
                );
              })}
            </TBody>
          </Table>
          <Pagination basePath={`/w/${workspace.id}/members`} nextCursor={page.nextCursor} isFirstPage={!cursor} />
        </div>
      )}
      <Card aria-labelledby="add-ws-member">
        <CardHeader>
          <CardTitle id="add-ws-member">Add a member</CardTitle>
          <CardDescription>
            Only members of {org.name} can join its workspaces. Someone new? Add them by email on the{" "}
            <Link className="underline" href={`/orgs/${org.id}/members`}>organization&apos;s Members page</Link>.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AddWorkspaceMemberForm workspaceId={workspace.id} candidates={candidates} roles={roleOptions} />
        </CardContent>
      </Card>
    </div>
  );
}
