import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { Badge } from "@/components/ui/badge";
import { requestBaseUrl, requireOrgAdmin } from "@/app/(admin)/_lib/context";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { OrgMemberListQuery } from "@/lib/orgs/member-schemas";
import { listOrgMembers } from "@/lib/orgs/members";
import { roleAllows } from "@/lib/permissions/table";
import { listOrgInvitations } from "@/lib/invitations/manage-invitations";
import { PendingInvitations } from "@/app/(admin)/orgs/[orgId]/members/pending-invitations";
import { AddOrgMemberForm } from "@/app/(admin)/orgs/[orgId]/members/add-member-form";
import { InviteForm } from "@/app/(admin)/orgs/[orgId]/members/invite-form";
import { OrgRoleSelect, RemoveOrgMemberButton } from "@/app/(admin)/orgs/[orgId]/members/member-controls";

export const metadata: Metadata = { title: "Organization members" };

type Props = { params: Promise<{ orgId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const COLUMNS: DataColumn[] = [
  { id: "email", header: "Person", sortable: true },
  { id: "role", header: "Role", sortable: true },
  { id: "remove", header: "Remove", className: "text-right" },
];

export default async function OrgMembersPage({ params, searchParams }: Props) {
  const { org, caller, userId } = await requireOrgAdmin((await params).orgId);
  const query = readListParams(OrgMemberListQuery, await searchParams);
  const [page, invitations] = await Promise.all([listOrgMembers(caller, org.id, query), listOrgInvitations(caller, org.id, { limit: 200 })]);
  const canGrantOwner = roleAllows(org.role, "owners.manage");
  const workspaces = org.workspaces.map((w) => ({ id: w.id, name: w.name }));
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Members"
        description="Owners and admins manage the organization and see every tool of every server. Members use the workspaces they are added to."
      />
      <DataTable
        caption={`Members of ${org.name}`}
        columns={COLUMNS}
        rows={page.items.map((m): DataRow => ({
          id: m.userId,
          label: m.name ?? m.email,
          cells: {
            email: (
              <>
                <span className="font-medium">{m.name ?? m.email}</span>
                {m.name && <span className="block text-xs text-zinc-500 dark:text-zinc-400">{m.email}</span>}
                {m.userId === userId && <Badge className="ml-2">you</Badge>}
              </>
            ),
            role: <OrgRoleSelect orgId={org.id} member={{ userId: m.userId, label: m.name ?? m.email, role: m.role }} canGrantOwner={canGrantOwner} />,
            remove: <RemoveOrgMemberButton orgId={org.id} member={{ userId: m.userId, label: m.name ?? m.email }} />,
          },
        }))}
        nextCursor={page.nextCursor}
        searchLabel="Search members by name or email"
      />
      <PendingInvitations items={invitations.items} answerUrl={`${await requestBaseUrl()}/invitations`} />
      <Card aria-labelledby="invite-title">
        <CardHeader>
          <CardTitle id="invite-title">Invite by email</CardTitle>
          <CardDescription>
            The invitation names their organization role and the workspaces they join. They accept with its link, with their account or a
            new one; it works once and for 7 days. With SMTP configured the link is emailed, otherwise you copy it to them.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InviteForm orgId={org.id} workspaces={workspaces} canGrantOwner={canGrantOwner} />
        </CardContent>
      </Card>
      <Card aria-labelledby="add-member-title">
        <CardHeader>
          <CardTitle id="add-member-title">Add someone by email</CardTitle>
          <CardDescription>
            A new account joins as a member; change their role in the list above. Someone who already has an account is invited instead
            and joins only once they accept on their Invitations page (their name and password stay theirs). Add members to workspaces on
            the workspaces ticked here, or later on each workspace&apos;s Members page.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AddOrgMemberForm orgId={org.id} workspaces={workspaces} />
        </CardContent>
      </Card>
    </div>
  );
}
