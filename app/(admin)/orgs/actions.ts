"use server";

import { z } from "zod";
import { runAction, runVersionedAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createOrg, deleteOrg, updateOrg } from "@/lib/orgs/orgs";
import { CreateOrgBody, UpdateOrgBody } from "@/lib/orgs/schemas";

export async function createOrgAction(input: unknown) {
  return runAction((caller) => createOrg(caller, CreateOrgBody.parse(input)));
}

export async function updateOrgAction(orgId: string, input: unknown, version?: string) {
  return runVersionedAction(version, (caller, ifMatch) => updateOrg(caller, Id.parse(orgId), UpdateOrgBody.parse(input), ifMatch));
}

export async function deleteOrgAction(orgId: string, version?: string) {
  return runVersionedAction(version, async (caller, ifMatch) => {
    await deleteOrg(caller, z.string().parse(orgId), ifMatch);
    return null;
  }, { revalidate: false });
}
