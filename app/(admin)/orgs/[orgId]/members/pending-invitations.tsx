import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import type { InvitationView } from "@/lib/invitations/invitation-view";
import { RevokeInvitationButton } from "@/app/(admin)/orgs/[orgId]/members/revoke-invitation-button";

const day = (d: Date) => <time dateTime={d.toISOString()}>{d.toISOString().slice(0, 10)}</time>;

/** The organization's unanswered invitations: who, with which role, until when, and a way to withdraw each. */
export function PendingInvitations({ items, answerUrl }: { items: InvitationView[]; answerUrl: string }) {
  return (
    <section aria-labelledby="pending-invitations-title" className="grid gap-2">
      <h2 id="pending-invitations-title" className="text-base font-semibold">
        Pending invitations
      </h2>
      {/* Each invitation's own link is shown once, when it is made; someone with an account can also answer here. */}
      <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <span>
          Invited people accept with their invitation&apos;s link, or at <code className="font-mono break-all">{answerUrl}</code> once signed in; an expired invitation can simply be sent again.
        </span>
        <CopyButton value={answerUrl} label="Copy link" />
      </p>
      {items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody is waiting to answer an invitation.</p>
      ) : (
        <Table>
          <caption className="sr-only">Invitations not answered yet</caption>
          <THead>
            <tr>
              <TH>Email</TH>
              <TH>Role</TH>
              <TH>Invited by</TH>
              <TH>Expires</TH>
              <TH className="text-right">Revoke</TH>
            </tr>
          </THead>
          <TBody>
            {items.map((i) => (
              <tr key={i.id}>
                <TD className="font-medium break-all">{i.email}</TD>
                <TD className="capitalize">{i.role}</TD>
                <TD>{i.invitedBy ? (i.invitedBy.name ?? i.invitedBy.email) : "instance credential"}</TD>
                <TD className="text-xs whitespace-nowrap">{i.status === "expired" ? <Badge tone="warning">Expired</Badge> : day(i.expiresAt)}</TD>
                <TD className="text-right">
                  <RevokeInvitationButton invitation={{ id: i.id, email: i.email }} />
                </TD>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}
