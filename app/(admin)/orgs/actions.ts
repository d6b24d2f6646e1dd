"use server";

import { z } from "zod";
import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createOrg, deleteOrg, updateOrg } from "@/lib/orgs/orgs";
import { CreateOrgBody, UpdateOrgBody } from "@/lib/orgs/schemas";

export async function createOrgAction(input: unknown) {
  return runAction((caller) => createOrg(caller, CreateOrgBody.parse(input)));
}

export async function updateOrgAction(orgId: string, input: unknown) {
  return runAction((caller) => updateOrg(caller, Id.parse(orgId), UpdateOrgBody.parse(input)));
}

export async function deleteOrgAction(orgId: string) {
  return runAction(async (caller) => {
    await deleteOrg(caller, z.string().parse(orgId));
    return null;
  }, { revalidate: false });
}
