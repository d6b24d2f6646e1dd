"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createRole, deleteRole, updateRole } from "@/lib/roles/roles";
import { CreateRoleBody, UpdateRoleBody } from "@/lib/roles/schemas";

export async function createRoleAction(orgId: string, input: unknown) {
  return runAction((caller) => createRole(caller, Id.parse(orgId), CreateRoleBody.parse(input)));
}

export async function updateRoleAction(roleId: string, input: unknown) {
  return runAction((caller) => updateRole(caller, Id.parse(roleId), UpdateRoleBody.parse(input)));
}

export async function deleteRoleAction(roleId: string) {
  return runAction(
    async (caller) => {
      await deleteRole(caller, Id.parse(roleId));
      return null;
    },
    { revalidate: false },
  );
}
