"use server";

import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createRole, deleteRole, updateRole } from "@/lib/roles/roles";
import { CreateRoleBody, UpdateRoleBody } from "@/lib/roles/schemas";

export async function createRoleAction(orgId: string, input: unknown) {
  return runAction((caller) => createRole(caller, Id.parse(orgId), CreateRoleBody.parse(input)));
}

export async function updateRoleAction(roleId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => updateRole(caller, Id.parse(roleId), UpdateRoleBody.parse(input), ifMatch));
}

export async function deleteRoleAction(roleId: string, version?: string) {
  return runVersionedAction(
    version,
    async (caller, ifMatch) => {
      await deleteRole(caller, Id.parse(roleId), ifMatch);
      return null;
    },
    { revalidate: false },
  );
}
