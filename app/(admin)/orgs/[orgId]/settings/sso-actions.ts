"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { PutSsoBody } from "@/lib/sso/schemas";
import { deleteOrgSso, putOrgSso } from "@/lib/sso/sso-connections";

export async function saveOrgSsoAction(orgId: string, input: unknown) {
  return runAction((caller) => putOrgSso(caller, Id.parse(orgId), PutSsoBody.parse(input)));
}

export async function deleteOrgSsoAction(orgId: string) {
  return runAction(async (caller) => {
    await deleteOrgSso(caller, Id.parse(orgId));
    return null;
  });
}
