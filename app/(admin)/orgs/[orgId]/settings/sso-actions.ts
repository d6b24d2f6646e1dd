"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { EmailDomain, PutSsoBody } from "@/lib/sso/schemas";
import { deleteOrgSso, putOrgSso } from "@/lib/sso/sso-connections";
import { verifySsoDomain } from "@/lib/sso/verify-sso-domain";

export async function saveOrgSsoAction(orgId: string, input: unknown) {
  return runAction((caller) => putOrgSso(caller, Id.parse(orgId), PutSsoBody.parse(input)));
}

export async function deleteOrgSsoAction(orgId: string) {
  return runAction(async (caller) => {
    await deleteOrgSso(caller, Id.parse(orgId));
    return null;
  });
}

export async function verifySsoDomainAction(orgId: string, domain: unknown) {
  return runAction((caller) => verifySsoDomain(caller, Id.parse(orgId), EmailDomain.parse(domain)));
}
