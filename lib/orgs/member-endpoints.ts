import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { AddOrgMemberBody, OrgMember, OrgMemberListQuery, UpdateOrgMemberBody } from "@/lib/orgs/member-schemas";
import { Invitation } from "@/lib/invitations/schemas";

const tag = "Organization members";
const orgParams = z.object({ orgId: Id });
const memberParams = z.object({ orgId: Id, userId: Id });

export const orgMemberEndpoints = {
  listOrgMembers: endpoint({ operationId: "listOrgMembers", method: "GET", path: "/orgs/{orgId}/members", tag, summary: "List the members of an organization", params: orgParams, query: OrgMemberListQuery, response: pageSchema(OrgMember) }),
  addOrgMember: endpoint({ operationId: "addOrgMember", method: "POST", path: "/orgs/{orgId}/members", tag, summary: "Add a user: the instance credential adds them at once (201); an owner/admin invites them, and they join once they accept (202)", params: orgParams, body: AddOrgMemberBody, status: 201, response: OrgMember, otherResponses: [{ status: 202, description: "Invited: the user joins when they accept", response: Invitation }] }),
  updateOrgMember: endpoint({ operationId: "updateOrgMember", method: "PATCH", path: "/orgs/{orgId}/members/{userId}", tag, summary: "Change a member's role", params: memberParams, body: UpdateOrgMemberBody, response: OrgMember }),
  removeOrgMember: endpoint({ operationId: "removeOrgMember", method: "DELETE", path: "/orgs/{orgId}/members/{userId}", tag, summary: "Remove a member (also from every workspace of the organization; their API keys there are revoked)", params: memberParams, status: 204, conflict: "The member is the organization's last owner" }),
};
