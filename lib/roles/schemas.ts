import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, Name } from "@/lib/schemas/common";

/** One whitelisted tool: by connector and tool name, so a connector reload keeps it. */
export const RoleTool = z.object({ connectorId: Id, tool: z.string().trim().min(1).max(200) }).meta({ id: "RoleTool" });
export type RoleTool = z.infer<typeof RoleTool>;

const RoleTools = z.array(RoleTool).max(2000);

/** One whitelisted prompt of an `mcp` connector's upstream: by connector and the upstream's prompt name. */
export const RolePrompt = z.object({ connectorId: Id, prompt: z.string().trim().min(1).max(200) }).meta({ id: "RolePrompt" });
export type RolePrompt = z.infer<typeof RolePrompt>;

const RolePrompts = z.array(RolePrompt).max(2000);

/** `prompts` may be left out: the role then whitelists no prompt. */
export const CreateRoleBody = z.object({ name: Name, tools: RoleTools, prompts: RolePrompts.optional() }).meta({ id: "CreateRole" });
export type CreateRoleBody = z.infer<typeof CreateRoleBody>;

/** `tools` and `prompts`, each when given, replace that whole whitelist. */
export const UpdateRoleBody = z.object({ name: Name.optional(), tools: RoleTools.optional(), prompts: RolePrompts.optional() }).meta({ id: "UpdateRole" });
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>;

export const Role = z
  .object({
    id: z.string(),
    orgId: z.string(),
    name: z.string(),
    tools: z.array(RoleTool),
    prompts: z.array(RolePrompt),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Role" });

/** List parameters of an organization's MCP roles. */
export const RoleListQuery = listQuery(["name", "createdAt", "updatedAt"], "names");
export type RoleListQuery = z.infer<typeof RoleListQuery>;
