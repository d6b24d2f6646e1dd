import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import {
  AddWorkspaceMemberBody,
  SetMembersRoleBody,
  WorkspaceListQuery,
  WorkspaceMemberListQuery,
  CreateWorkspaceBody,
  UpdateWorkspaceBody,
  UpdateWorkspaceMemberBody,
  Workspace,
  WorkspaceMember,
} from "@/lib/workspaces/schemas";

const tag = "Workspaces";
const orgParams = z.object({ orgId: Id });
const workspaceParams = z.object({ workspaceId: Id });
const memberParams = z.object({ workspaceId: Id, userId: Id });

export const workspaceEndpoints = {
  listWorkspaces: endpoint({ operationId: "listWorkspaces", method: "GET", path: "/orgs/{orgId}/workspaces", tag, summary: "List the organization's workspaces the caller works in", params: orgParams, query: WorkspaceListQuery, response: pageSchema(Workspace) }),
  createWorkspace: endpoint({ operationId: "createWorkspace", etag: true, method: "POST", path: "/orgs/{orgId}/workspaces", tag, summary: "Create a workspace", params: orgParams, body: CreateWorkspaceBody, status: 201, response: Workspace }),
  getWorkspace: endpoint({ operationId: "getWorkspace", etag: true, method: "GET", path: "/workspaces/{workspaceId}", tag, summary: "Get a workspace", params: workspaceParams, response: Workspace }),
  updateWorkspace: endpoint({ operationId: "updateWorkspace", etag: true, method: "PATCH", path: "/workspaces/{workspaceId}", tag, summary: "Rename a workspace or change its settings (not with a key pinned to one server: 403)", params: workspaceParams, body: UpdateWorkspaceBody, response: Workspace }),
  deleteWorkspace: endpoint({ operationId: "deleteWorkspace", etag: true, method: "DELETE", path: "/workspaces/{workspaceId}", tag, summary: "Delete a workspace and everything in it (not with a key pinned to one server: 403)", params: workspaceParams, status: 204 }),
  listWorkspaceMembers: endpoint({ operationId: "listWorkspaceMembers", method: "GET", path: "/workspaces/{workspaceId}/members", tag, summary: "List the members of a workspace", params: workspaceParams, query: WorkspaceMemberListQuery, response: pageSchema(WorkspaceMember) }),
  addWorkspaceMember: endpoint({ operationId: "addWorkspaceMember", method: "POST", path: "/workspaces/{workspaceId}/members", tag, summary: "Add an organization member to a workspace, optionally with an MCP role", params: workspaceParams, body: AddWorkspaceMemberBody, status: 201, response: WorkspaceMember }),
  updateWorkspaceMember: endpoint({ operationId: "updateWorkspaceMember", method: "PATCH", path: "/workspaces/{workspaceId}/members/{userId}", tag, summary: "Change a workspace member's MCP role", params: memberParams, body: UpdateWorkspaceMemberBody, response: WorkspaceMember }),
  setWorkspaceMembersRole: endpoint({ operationId: "setWorkspaceMembersRole", method: "POST", path: "/workspaces/{workspaceId}/members/bulk-role", tag, summary: "Give several workspace members one MCP role (each as PATCH …/members/{userId})", params: workspaceParams, body: SetMembersRoleBody, response: BulkResult }),
  removeWorkspaceMember: endpoint({ operationId: "removeWorkspaceMember", method: "DELETE", path: "/workspaces/{workspaceId}/members/{userId}", tag, summary: "Remove a member from a workspace (their API keys there are revoked, with the keys those issued). An owner only by an owner or the instance credential (403)", params: memberParams, status: 204 }),
};
