"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createUser } from "@/lib/users/users";
import { CreateUserBody } from "@/lib/users/schemas";
import { removeOrgMember, updateOrgMember } from "@/lib/orgs/members";
import { UpdateOrgMemberBody } from "@/lib/orgs/member-schemas";
import { revokeInvitation } from "@/lib/invitations/manage-invitations";
import { createInvitation } from "@/lib/invitations/invite-to-org";
import { CreateInvitationBody } from "@/lib/invitations/schemas";
import { requestBaseUrl } from "@/app/(admin)/_lib/context";

/** Adds someone by email: a new account is created and joins; an existing one gets an invitation to accept. */
export async function addOrgMemberByEmailAction(orgId: string, input: unknown) {
  return runAction((caller) => createUser(caller, CreateUserBody.parse({ ...(input as object), orgId: Id.parse(orgId) })));
}

export async function updateOrgMemberAction(orgId: string, userId: string, input: unknown) {
  return runAction((caller) => updateOrgMember(caller, Id.parse(orgId), Id.parse(userId), UpdateOrgMemberBody.parse(input)));
}

export async function removeOrgMemberAction(orgId: string, userId: string) {
  return runAction(async (caller) => {
    await removeOrgMember(caller, Id.parse(orgId), Id.parse(userId));
    return null;
  });
}

export async function revokeInvitationAction(invitationId: string) {
  return runAction(async (caller) => {
    await revokeInvitation(caller, Id.parse(invitationId));
    return null;
  });
}

/** Invites by email with a role and workspaces; the answer carries the link (emailed when SMTP is configured). */
export async function inviteByEmailAction(orgId: string, input: unknown) {
  const baseUrl = await requestBaseUrl();
  return runAction((caller) => createInvitation(caller, Id.parse(orgId), CreateInvitationBody.parse(input), baseUrl));
}
