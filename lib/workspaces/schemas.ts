import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, Name, Slug } from "@/lib/schemas/common";

export const CreateWorkspaceBody = z
  .object({
    name: Name,
    slug: Slug,
    knowledgeGraphEnabled: z.boolean().default(false),
    toolWhitelistsEnabled: z.boolean().default(false),
  })
  .meta({ id: "CreateWorkspace" });
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = z
  .object({
    name: Name.optional(),
    slug: Slug.optional(),
    knowledgeGraphEnabled: z.boolean().optional(),
    toolWhitelistsEnabled: z.boolean().optional(),
  })
  .meta({ id: "UpdateWorkspace" });
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBody>;

export const Workspace = z
  .object({
    id: z.string(),
    orgId: z.string(),
    name: z.string(),
    slug: z.string(),
    knowledgeGraphEnabled: z.boolean(),
    toolWhitelistsEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Workspace" });

export const AddWorkspaceMemberBody = z
  .object({ userId: Id, mcpRoleId: Id.nullable().optional() })
  .meta({ id: "AddWorkspaceMember" });
export type AddWorkspaceMemberBody = z.infer<typeof AddWorkspaceMemberBody>;

export const UpdateWorkspaceMemberBody = z.object({ mcpRoleId: Id.nullable() }).meta({ id: "UpdateWorkspaceMember" });
export type UpdateWorkspaceMemberBody = z.infer<typeof UpdateWorkspaceMemberBody>;

export const WorkspaceMember = z
  .object({
    /** The membership's own id (also the list cursor); the user is `userId`. */
    id: z.string(),
    orgId: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    mcpRoleId: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WorkspaceMember" });

/** List parameters of a workspace's members. */
export const WorkspaceListQuery = listQuery(["name", "slug", "createdAt"], "workspace names and slugs");
export type WorkspaceListQuery = z.infer<typeof WorkspaceListQuery>;

export const WorkspaceMemberListQuery = listQuery(["email", "createdAt"], "member names and emails");
export type WorkspaceMemberListQuery = z.infer<typeof WorkspaceMemberListQuery>;

export const SetMembersRoleBody = z
  .object({
    userIds: z.array(Id).min(1).max(200).meta({ description: "Members of the workspace (at most 200)." }),
    mcpRoleId: Id.nullable().meta({ description: "The MCP role to give them (null: none)." }),
  })
  .meta({ id: "SetMembersRole" });
export type SetMembersRoleBody = z.infer<typeof SetMembersRoleBody>;
