"use server";

import { z } from "zod";
import { runAction } from "@/app/(admin)/_lib/run-action";
import { requestBaseUrl } from "@/app/(admin)/_lib/context";
import { Id } from "@/lib/schemas/common";
import { startConnection } from "@/lib/connectors/upstream-auth/connect";
import { deleteConnection, deleteMyConnection } from "@/lib/connectors/upstream-auth/connections";

/**
 * Connect: the upstream's authorization URL for the signed-in person, the callback on the origin
 * their browser uses (PUBLIC_URL when set); back at `returnTo` once connected.
 */
export async function startConnectionAction(connectorId: string, returnTo: string) {
  return runAction(async (caller) => startConnection(caller, Id.parse(connectorId), { returnTo: z.string().max(2048).parse(returnTo) }, await requestBaseUrl()), { revalidate: false });
}

/** Disconnect one's own connection (revoked upstream where offered). */
export async function disconnectMyConnectionAction(connectionId: string) {
  return runAction(async (caller) => {
    await deleteMyConnection(caller, Id.parse(connectionId));
    return null;
  });
}

/** An owner or admin removes anyone's connection of their organization (a shared one made by another admin included). */
export async function removeConnectionAction(connectionId: string) {
  return runAction(async (caller) => {
    await deleteConnection(caller, Id.parse(connectionId));
    return null;
  });
}
