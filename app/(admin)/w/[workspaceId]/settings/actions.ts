"use server";

import { runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { deleteWorkspace, updateWorkspace } from "@/lib/workspaces/workspaces";
import { UpdateWorkspaceBody } from "@/lib/workspaces/schemas";

export async function updateWorkspaceAction(workspaceId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => updateWorkspace(caller, Id.parse(workspaceId), UpdateWorkspaceBody.parse(input), ifMatch));
}

export async function deleteWorkspaceAction(workspaceId: string, version?: string) {
  return runVersionedAction(version, async (caller, ifMatch) => {
    await deleteWorkspace(caller, Id.parse(workspaceId), ifMatch);
    return null;
  }, { revalidate: false });
}
