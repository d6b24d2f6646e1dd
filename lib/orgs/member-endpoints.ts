import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";
import { AddOrgMemberBody, OrgMember, UpdateOrgMemberBody } from "@/lib/orgs/member-schemas";

const tag = "Organization members";
const orgParams = z.object({ orgId: Id });
const memberParams = z.object({ orgId: Id, userId: Id });

export const orgMemberEndpoints = {
  listOrgMembers: endpoint({ method: "GET", path: "/orgs/{orgId}/members", tag, summary: "List the members of an organization", params: orgParams, query: PageQuery, response: pageSchema(OrgMember) }),
  addOrgMember: endpoint({ method: "POST", path: "/orgs/{orgId}/members", tag, summary: "Add an existing user to an organization", params: orgParams, body: AddOrgMemberBody, status: 201, response: OrgMember }),
  updateOrgMember: endpoint({ method: "PATCH", path: "/orgs/{orgId}/members/{userId}", tag, summary: "Change a member's role", params: memberParams, body: UpdateOrgMemberBody, response: OrgMember }),
  removeOrgMember: endpoint({ method: "DELETE", path: "/orgs/{orgId}/members/{userId}", tag, summary: "Remove a member (also from every workspace of the organization; their API keys there are revoked)", params: memberParams, status: 204 }),
};
