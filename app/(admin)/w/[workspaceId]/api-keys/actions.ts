"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { CreateApiKeyBody } from "@/lib/api-keys/schemas";

/** Issues a key; the secret is in this answer only (the page shows it once). */
export async function createApiKeyAction(workspaceId: string, input: unknown) {
  return runAction((caller) => createApiKey(caller, Id.parse(workspaceId), CreateApiKeyBody.parse(input)));
}

export async function revokeApiKeyAction(keyId: string) {
  return runAction(async (caller) => {
    await revokeApiKey(caller, Id.parse(keyId));
    return null;
  });
}
