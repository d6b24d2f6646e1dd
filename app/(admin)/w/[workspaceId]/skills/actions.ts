"use server";

import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createSkill, deleteSkill, updateSkill } from "@/lib/skills/skills";
import { CreateSkillBody, UpdateSkillBody } from "@/lib/skills/schemas";

export async function createSkillAction(workspaceId: string, input: unknown) {
  return runAction((caller) => createSkill(caller, Id.parse(workspaceId), CreateSkillBody.parse(input)));
}

export async function updateSkillAction(skillId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => updateSkill(caller, Id.parse(skillId), UpdateSkillBody.parse(input), ifMatch));
}

export async function deleteSkillAction(skillId: string, version?: string) {
  return runVersionedAction(
    version,
    async (caller, ifMatch) => {
      await deleteSkill(caller, Id.parse(skillId), ifMatch);
      return null;
    },
    { revalidate: false },
  );
}
