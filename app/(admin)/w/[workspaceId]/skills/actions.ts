"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createSkill, deleteSkill, updateSkill } from "@/lib/skills/skills";
import { CreateSkillBody, UpdateSkillBody } from "@/lib/skills/schemas";

export async function createSkillAction(workspaceId: string, input: unknown) {
  return runAction((caller) => createSkill(caller, Id.parse(workspaceId), CreateSkillBody.parse(input)));
}

export async function updateSkillAction(skillId: string, input: unknown) {
  return runAction((caller) => updateSkill(caller, Id.parse(skillId), UpdateSkillBody.parse(input)));
}

export async function deleteSkillAction(skillId: string) {
  return runAction(
    async (caller) => {
      await deleteSkill(caller, Id.parse(skillId));
      return null;
    },
    { revalidate: false },
  );
}
