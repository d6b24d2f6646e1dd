import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";
import { CreateOrgBody, Org, UpdateOrgBody } from "@/lib/orgs/schemas";

const tag = "Organizations";
const orgParams = z.object({ orgId: Id });

export const orgEndpoints = {
  listOrgs: endpoint({ operationId: "listOrgs", method: "GET", path: "/orgs", tag, summary: "List the organizations the caller belongs to", query: PageQuery, response: pageSchema(Org) }),
  createOrg: endpoint({ operationId: "createOrg", etag: true, method: "POST", path: "/orgs", tag, summary: "Create an organization", body: CreateOrgBody, status: 201, response: Org }),
  getOrg: endpoint({ operationId: "getOrg", etag: true, method: "GET", path: "/orgs/{orgId}", tag, summary: "Get an organization", params: orgParams, response: Org }),
  updateOrg: endpoint({ operationId: "updateOrg", etag: true, method: "PATCH", path: "/orgs/{orgId}", tag, summary: "Rename an organization, change its slug or what its tool audit events keep", params: orgParams, body: UpdateOrgBody, response: Org }),
  deleteOrg: endpoint({ operationId: "deleteOrg", etag: true, method: "DELETE", path: "/orgs/{orgId}", tag, summary: "Delete an organization and everything in it (owners only: an admin gets 403)", params: orgParams, status: 204 }),
};
