"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { addWorkspaceMember, removeWorkspaceMember, updateWorkspaceMember } from "@/lib/workspaces/members";
import { AddWorkspaceMemberBody, UpdateWorkspaceMemberBody } from "@/lib/workspaces/schemas";

export async function addWorkspaceMemberAction(workspaceId: string, input: unknown) {
  return runAction((caller) => addWorkspaceMember(caller, Id.parse(workspaceId), AddWorkspaceMemberBody.parse(input)));
}

export async function updateWorkspaceMemberAction(workspaceId: string, userId: string, input: unknown) {
  return runAction((caller) => updateWorkspaceMember(caller, Id.parse(workspaceId), Id.parse(userId), UpdateWorkspaceMemberBody.parse(input)));
}

export async function removeWorkspaceMemberAction(workspaceId: string, userId: string) {
  return runAction(async (caller) => {
    await removeWorkspaceMember(caller, Id.parse(workspaceId), Id.parse(userId));
    return null;
  });
}
