import type { Metadata } from "next";
import { Mail } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { loadViewer } from "@/app/(admin)/_lib/context";
import { listMyInvitations } from "@/lib/invitations/answer-invitation";
import { InvitationAnswer } from "@/app/(admin)/invitations/invitation-answer";

export const metadata: Metadata = { title: "Invitations" };

const day = (d: Date) => <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time>;

/** Where a signed-in person answers the invitations to join organizations: nobody joins one without saying yes here. */
export default async function InvitationsPage() {
  const { caller } = await loadViewer();
  const page = await listMyInvitations(caller, { limit: 200 });
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="Invitations" description="Organizations that invited you. You join one only when you accept; either answer is recorded in that organization's audit log." />
      {page.items.length === 0 ? (
        <EmptyState icon={Mail} title="No pending invitations">
          When an organization invites you, it appears here until you answer or it expires.
        </EmptyState>
      ) : (
        <Table>
          <caption className="sr-only">Your pending invitations</caption>
          <THead>
            <tr>
              <TH>Organization</TH>
              <TH>Role</TH>
              <TH>Invited by</TH>
              <TH>Expires</TH>
              <TH className="text-right">Answer</TH>
            </tr>
          </THead>
          <TBody>
            {page.items.map((i) => (
              <tr key={i.id}>
                <TD className="font-medium">
                  {i.orgName}
                  {i.workspaceIds.length > 0 && (
                    <span className="block text-xs font-normal text-zinc-500 dark:text-zinc-400">
                      and {i.workspaceIds.length} {i.workspaceIds.length === 1 ? "workspace" : "workspaces"}
                    </span>
                  )}
                </TD>
                <TD className="capitalize">{i.role}</TD>
                <TD>{i.invitedBy ? (i.invitedBy.name ?? i.invitedBy.email) : "the instance operator"}</TD>
                <TD className="text-xs whitespace-nowrap">{day(i.expiresAt)}</TD>
                <TD className="text-right">
                  <InvitationAnswer invitation={{ id: i.id, orgName: i.orgName }} />
                </TD>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
