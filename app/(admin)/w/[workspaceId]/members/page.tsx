import type { Metadata } from "next";
import Link from "next/link";
import { Users } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { Badge } from "@/components/ui/badge";
import { requireWorkspace } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { WorkspaceMemberListQuery } from "@/lib/workspaces/schemas";
import { listWorkspaceMembers } from "@/lib/workspaces/members";
import { listOrgMembers } from "@/lib/orgs/members";
import { listRoles } from "@/lib/roles/roles";
import { roleAllows } from "@/lib/permissions/table";
import { AddWorkspaceMemberForm } from "@/app/(admin)/w/[workspaceId]/members/add-workspace-member-form";
import { McpRoleSelect, RemoveWorkspaceMemberButton } from "@/app/(admin)/w/[workspaceId]/members/workspace-member-controls";

export const metadata: Metadata = { title: "Workspace members" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "email", header: "Person", sortable: true },
  { id: "role", header: "MCP role" },
  { id: "remove", header: "Remove", className: "text-right" },
];

export default async function WorkspaceMembersPage({ params, searchParams }: Props) {
  const { workspace, org, caller, userId } = await requireWorkspace((await params).workspaceId, { admin: true });
  // Owners are reached by owners only (the permission table's owners.manage): an admin's Remove could only end in a 403.
  const mayReachOwners = roleAllows(org.role, "owners.manage");
  const query = readListParams(WorkspaceMemberListQuery, await searchParams);
  const [page, orgMembers, roles] = await Promise.all([
    listWorkspaceMembers(caller, workspace.id, query),
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
      {page.items.length === 0 && !query.cursor && !query.q ? (
        <EmptyState icon={Users} title="Nobody works in this workspace yet">
          Add organization members below. To invite someone new, add them on the organization&apos;s{" "}
          <Link className="underline" href={`/orgs/${org.id}/members`}>Members</Link> page first.
        </EmptyState>
      ) : (
        <DataTable
          caption={`Members of ${workspace.name}`}
          columns={COLUMNS}
          rows={page.items.map((m): DataRow => {
            const label = m.name ?? m.email;
            const orgRole = orgRoleOf.get(m.userId);
            return {
              id: m.userId,
              label,
              cells: {
                email: (
                  <>
                    <span className="font-medium">{label}</span>
                    {m.name && <span className="block text-xs text-zinc-500 dark:text-zinc-400">{m.email}</span>}
                    {orgRole && orgRole !== "member" && <Badge className="mt-1">org {orgRole}: every tool</Badge>}
                  </>
                ),
                role: <McpRoleSelect workspaceId={workspace.id} member={{ userId: m.userId, label, mcpRoleId: m.mcpRoleId }} roles={roleOptions} />,
                remove:
                  orgRole === "owner" && !mayReachOwners && m.userId !== userId ? (
                    <span className="text-xs text-zinc-500 dark:text-zinc-400">an owner: owners remove them</span>
                  ) : (
                    <RemoveWorkspaceMemberButton workspaceId={workspace.id} member={{ userId: m.userId, label }} />
                  ),
              },
            };
          })}
          nextCursor={page.nextCursor}
          searchLabel="Search members by name or email"
          bulk={{
            verb: "Set MCP role of",
            noun: "member",
            endpoint: `/api/v1/workspaces/${workspace.id}/members/bulk-role`,
            idsField: "userIds",
            choice: { field: "mcpRoleId", label: "MCP role to give", options: [...roleOptions.map((r) => ({ value: r.id, label: r.name })), { value: "", label: "No role" }] },
          }}
        />
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
