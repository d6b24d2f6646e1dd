import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, Markdown, Name } from "@/lib/schemas/common";

const Content = Markdown.min(1, "Must not be empty.");
const ConnectorScope = Id.nullable().meta({ description: "Scope the skill to one connector of the organization (null: the whole workspace)." });

export const CreateSkillBody = z
  .object({
    name: Name,
    content: Content,
    connectorId: ConnectorScope.optional(),
    applied: z.boolean().default(true).meta({ description: "Applied skills are part of the servers' initialize instructions." }),
  })
  .meta({ id: "CreateSkill" });
export type CreateSkillBody = z.infer<typeof CreateSkillBody>;

export const UpdateSkillBody = z
  .object({ name: Name.optional(), content: Content.optional(), connectorId: ConnectorScope.optional(), applied: z.boolean().optional() })
  .meta({ id: "UpdateSkill" });
export type UpdateSkillBody = z.infer<typeof UpdateSkillBody>;

export const Skill = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    content: z.string(),
    connectorId: z.string().nullable(),
    applied: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Skill" });

/** List parameters of a workspace's skills. */
export const SkillListQuery = listQuery(["name", "createdAt", "updatedAt"], "names");
export type SkillListQuery = z.infer<typeof SkillListQuery>;
