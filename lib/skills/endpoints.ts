import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkIdsBody, BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import { CreateSkillBody, Skill, SkillListQuery, UpdateSkillBody } from "@/lib/skills/schemas";

const tag = "Skills";
const workspaceParams = z.object({ workspaceId: Id });
const skillParams = z.object({ skillId: Id });

export const skillEndpoints = {
  listSkills: endpoint({ operationId: "listSkills", method: "GET", path: "/workspaces/{workspaceId}/skills", tag, summary: "List a workspace's skills", params: workspaceParams, query: SkillListQuery, response: pageSchema(Skill) }),
  createSkill: endpoint({ operationId: "createSkill", etag: true, method: "POST", path: "/workspaces/{workspaceId}/skills", tag, summary: "Add a skill to a workspace", params: workspaceParams, body: CreateSkillBody, status: 201, response: Skill }),
  getSkill: endpoint({ operationId: "getSkill", etag: true, method: "GET", path: "/skills/{skillId}", tag, summary: "Get a skill", params: skillParams, response: Skill }),
  updateSkill: endpoint({ operationId: "updateSkill", etag: true, method: "PATCH", path: "/skills/{skillId}", tag, summary: "Change a skill", params: skillParams, body: UpdateSkillBody, response: Skill }),
  deleteSkill: endpoint({ operationId: "deleteSkill", etag: true, method: "DELETE", path: "/skills/{skillId}", tag, summary: "Delete a skill", params: skillParams, status: 204 }),
  deleteSkills: endpoint({ operationId: "deleteSkills", method: "POST", path: "/skills/bulk-delete", tag, summary: "Delete several skills (each as DELETE /skills/{skillId}, audited on its own)", body: BulkIdsBody, response: BulkResult }),
};
