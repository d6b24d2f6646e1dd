import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { CreateRoleBody, Role, RoleListQuery, UpdateRoleBody } from "@/lib/roles/schemas";

const tag = "MCP roles";
const orgParams = z.object({ orgId: Id });
const roleParams = z.object({ roleId: Id });

export const roleEndpoints = {
  listRoles: endpoint({ operationId: "listRoles", method: "GET", path: "/orgs/{orgId}/roles", tag, summary: "List the organization's MCP roles", params: orgParams, query: RoleListQuery, response: pageSchema(Role) }),
  createRole: endpoint({ operationId: "createRole", etag: true, method: "POST", path: "/orgs/{orgId}/roles", tag, summary: "Create an MCP role (a tool and prompt whitelist)", params: orgParams, body: CreateRoleBody, status: 201, response: Role }),
  getRole: endpoint({ operationId: "getRole", etag: true, method: "GET", path: "/roles/{roleId}", tag, summary: "Get an MCP role", params: roleParams, response: Role }),
  updateRole: endpoint({ operationId: "updateRole", etag: true, method: "PATCH", path: "/roles/{roleId}", tag, summary: "Rename an MCP role or replace its tools or prompts", params: roleParams, body: UpdateRoleBody, response: Role }),
  deleteRole: endpoint({ operationId: "deleteRole", etag: true, method: "DELETE", path: "/roles/{roleId}", tag, summary: "Delete an MCP role (its members keep their workspaces, without a role)", params: roleParams, status: 204 }),
};
