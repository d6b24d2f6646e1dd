"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { Id } from "@/lib/schemas/common";
import { createStoredResource, deleteStoredResource, updateStoredResource } from "@/lib/resources/stored-resources";
import { CreateStoredResourceBody, UpdateStoredResourceBody } from "@/lib/resources/schemas";

export async function createStoredResourceAction(connectorId: string, input: unknown) {
  return runAction((caller) => createStoredResource(caller, Id.parse(connectorId), CreateStoredResourceBody.parse(input)));
}

export async function updateStoredResourceAction(resourceId: string, input: unknown) {
  return runAction((caller) => updateStoredResource(caller, Id.parse(resourceId), UpdateStoredResourceBody.parse(input)));
}

export async function deleteStoredResourceAction(resourceId: string) {
  return runAction(async (caller) => {
    await deleteStoredResource(caller, Id.parse(resourceId));
    return null;
  });
}
