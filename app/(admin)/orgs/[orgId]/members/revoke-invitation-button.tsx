"use client";

import { Ban } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { applyResult } from "@/components/forms/apply-result";
import { revokeInvitationAction } from "@/app/(admin)/orgs/[orgId]/members/actions";

export function RevokeInvitationButton({ invitation }: { invitation: { id: string; email: string } }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="sm" aria-label={`Revoke the invitation of ${invitation.email}`}>
          <Ban aria-hidden />
          Revoke
        </Button>
      }
      title={`Revoke the invitation of ${invitation.email}?`}
      description="They can no longer accept it. You can invite them again later."
      confirmLabel="Revoke invitation"
      pendingLabel="Revoking…"
      onConfirm={async () => applyResult(await revokeInvitationAction(invitation.id), { success: `Invitation of ${invitation.email} revoked` })}
    />
  );
}
