"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { revokeConnectedApp } from "@/lib/oauth/connected-apps";

export async function revokeConnectedAppAction(appId: string) {
  return runAction(async (caller) => {
    await revokeConnectedApp(caller, Id.parse(appId));
    return null;
  });
}
