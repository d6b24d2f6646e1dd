"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { acceptInvitation, declineInvitation } from "@/lib/invitations/answer-invitation";

export async function acceptInvitationAction(invitationId: string) {
  return runAction((caller) => acceptInvitation(caller, Id.parse(invitationId)));
}

export async function declineInvitationAction(invitationId: string) {
  return runAction(async (caller) => {
    await declineInvitation(caller, Id.parse(invitationId));
    return null;
  });
}
