"use client";

import { useTransition } from "react";
import { Check, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { applyResult } from "@/components/forms/apply-result";
import { acceptInvitationAction, declineInvitationAction } from "@/app/(admin)/invitations/actions";

/** Accept / Decline for one invitation; both buttons name the organization for screen readers. */
export function InvitationAnswer({ invitation }: { invitation: { id: string; orgName: string } }) {
  const [pending, startTransition] = useTransition();
  const answer = (accept: boolean) =>
    startTransition(async () => {
      const result = accept ? await acceptInvitationAction(invitation.id) : await declineInvitationAction(invitation.id);
      applyResult(result, { success: accept ? `You joined ${invitation.orgName}` : `Invitation to ${invitation.orgName} declined` });
    });
  return (
    <div className="flex flex-wrap gap-2" aria-busy={pending}>
      <Button type="button" size="sm" disabled={pending} onClick={() => answer(true)} aria-label={`Accept the invitation to ${invitation.orgName}`}>
        <Check aria-hidden />
        Accept
      </Button>
      <Button type="button" size="sm" variant="ghost" disabled={pending} onClick={() => answer(false)} aria-label={`Decline the invitation to ${invitation.orgName}`}>
        <X aria-hidden />
        Decline
      </Button>
    </div>
  );
}
