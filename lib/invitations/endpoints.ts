import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";
import { OrgMember } from "@/lib/orgs/member-schemas";
import { CreateInvitationBody, CreatedInvitation, Invitation } from "@/lib/invitations/schemas";

const tag = "Invitations";
const orgParams = z.object({ orgId: Id });
const invitationParams = z.object({ invitationId: Id });

export const invitationEndpoints = {
  listOrgInvitations: endpoint({ operationId: "listOrgInvitations", method: "GET", path: "/orgs/{orgId}/invitations", tag, summary: "List the organization's open invitations (pending and expired)", params: orgParams, query: PageQuery, response: pageSchema(Invitation) }),
  createInvitation: endpoint({ operationId: "createInvitation", method: "POST", path: "/orgs/{orgId}/invitations", tag, summary: "Invite a person by email; the answer is the same whether or not an account has that email", params: orgParams, body: CreateInvitationBody, status: 201, response: CreatedInvitation }),
  revokeInvitation: endpoint({ operationId: "revokeInvitation", method: "DELETE", path: "/invitations/{invitationId}", tag, summary: "Revoke a pending invitation (an admin of its organization)", params: invitationParams, status: 204, conflict: "The invitation was already answered or revoked" }),
  listMyInvitations: endpoint({ operationId: "listMyInvitations", method: "GET", path: "/me/invitations", tag, summary: "The signed-in user's pending invitations", query: PageQuery, response: pageSchema(Invitation) }),
  acceptInvitation: endpoint({ operationId: "acceptInvitation", method: "POST", path: "/invitations/{invitationId}/accept", tag, summary: "Accept an invitation (signed-in browser session of the invited user only)", params: invitationParams, response: OrgMember, conflict: "The invitation expired, was already answered or revoked, or would make you an owner and its sender is no longer one" }),
  declineInvitation: endpoint({ operationId: "declineInvitation", method: "POST", path: "/invitations/{invitationId}/decline", tag, summary: "Decline an invitation (signed-in browser session of the invited user only)", params: invitationParams, status: 204, conflict: "The invitation expired, or was already answered or revoked" }),
};
