"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { deleteWorkspace, updateWorkspace } from "@/lib/workspaces/workspaces";
import { UpdateWorkspaceBody } from "@/lib/workspaces/schemas";

export async function updateWorkspaceAction(workspaceId: string, input: unknown) {
  return runAction((caller) => updateWorkspace(caller, Id.parse(workspaceId), UpdateWorkspaceBody.parse(input)));
}

export async function deleteWorkspaceAction(workspaceId: string) {
  return runAction(async (caller) => {
    await deleteWorkspace(caller, Id.parse(workspaceId));
    return null;
  }, { revalidate: false });
}
