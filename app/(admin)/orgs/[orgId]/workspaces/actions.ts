"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { CreateWorkspaceBody } from "@/lib/workspaces/schemas";

export async function createWorkspaceAction(orgId: string, input: unknown) {
  return runAction((caller) => createWorkspace(caller, Id.parse(orgId), CreateWorkspaceBody.parse(input)));
}
