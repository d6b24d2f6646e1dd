import { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { findManagedConnector } from "@/lib/connectors/managed-connector";
import type { CreateStoredResourceBody, StoredResourceListQuery, UpdateStoredResourceBody } from "@/lib/resources/schemas";
import { lockForWrite } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";
import { type BulkResult, runBulk } from "@/lib/api/bulk";
import { assertCredentialMay } from "@/lib/permissions/guards";

/**
 * Stored resources of a connector (table `mcp_resources`). The table has no org column, so
 * every query reaches the organization through the connector: `connector: { org: … }`.
 */

const resourceSelect = {
  id: true,
  connectorId: true,
  uri: true,
  name: true,
  description: true,
  mimeType: true,
  fetchConfig: true,
  createdAt: true,
} satisfies Prisma.StoredResourceSelect;

export type StoredResourceView = Prisma.StoredResourceGetPayload<{ select: typeof resourceSelect }>;

const managedResources = (caller: Caller): Prisma.StoredResourceWhereInput => ({ connector: { org: orgsManagedBy(caller) } });

/** Adds a stored resource to a connector the caller manages (URI and MIME rules: schemas.ts). */
export async function createStoredResource(caller: Caller, connectorId: string, input: CreateStoredResourceBody): Promise<StoredResourceView> {
  assertCredentialMay(caller, "connectors.manage");
  return db().$transaction(async (tx) => {
    const connector = await findManagedConnector(tx, caller, connectorId);
    const resource = await tx.storedResource.create({
      data: {
        connectorId: connector.id,
        uri: input.uri,
        name: input.name,
        description: input.description ?? null,
        mimeType: input.mimeType ?? null,
        fetchConfig: (input.fetchConfig ?? undefined) as Prisma.InputJsonValue | undefined,
      },
      select: resourceSelect,
    });
    configVersion.markBumped(connector.orgId); // by the mcp_resources trigger, in this transaction
    await recordAuditEvent(
      caller,
      { orgId: connector.orgId, action: "resource.create", targetType: "stored_resource", targetId: resource.id, data: { connectorId, uri: input.uri } },
      tx,
    );
    return resource;
  });
}

/** The stored resources of a connector the caller manages. */
export async function listStoredResources(caller: Caller, connectorId: string, query: ListArgs<StoredResourceListQuery>): Promise<Page<StoredResourceView>> {
  await findManagedConnector(db(), caller, connectorId);
  const where: Prisma.StoredResourceWhereInput = { connectorId, AND: [managedResources(caller)], ...searchIn(query.q, (m) => [{ name: m }, { uri: m }]) };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.StoredResourceOrderByWithRelationInput[];
  return pageOf(query, (args) => db().storedResource.findMany({ where, orderBy, select: resourceSelect, ...args }));
}

/** Changes the given fields of a stored resource of a connector the caller manages. */
export async function updateStoredResource(caller: Caller, resourceId: string, input: UpdateStoredResourceBody, ifMatch?: IfMatch): Promise<StoredResourceView> {
  assertCredentialMay(caller, "connectors.manage");
  return db().$transaction(async (tx) => {
    const where = { id: resourceId, AND: [managedResources(caller)] };
    const current = await tx.storedResource.findFirst({ where, select: { connectorId: true, connector: { select: { orgId: true } } } });
    if (!current) throw new NotFoundError("resource");
    await lockResourceForWrite(tx, where, current, ifMatch);
    const data: Prisma.StoredResourceUpdateManyMutationInput = {};
    if (input.uri !== undefined) data.uri = input.uri;
    if (input.name !== undefined) data.name = input.name;
    if (input.description !== undefined) data.description = input.description;
    if (input.mimeType !== undefined) data.mimeType = input.mimeType;
    if (input.fetchConfig !== undefined) data.fetchConfig = input.fetchConfig === null ? Prisma.DbNull : (input.fetchConfig as Prisma.InputJsonValue);
    const { count } = await tx.storedResource.updateMany({ where, data });
    if (count === 0) throw new NotFoundError("resource");
    configVersion.markBumped(current.connector.orgId); // by the mcp_resources trigger, in this transaction
    await recordAuditEvent(
      caller,
      {
        orgId: current.connector.orgId,
        action: "resource.update",
        targetType: "stored_resource",
        targetId: resourceId,
        data: { connectorId: current.connectorId, fields: Object.keys(input), ...(input.uri !== undefined ? { uri: input.uri } : {}) },
      },
      tx,
    );
    return tx.storedResource.findFirstOrThrow({ where, select: resourceSelect });
  });
}

/**
 * A stored resource has no organization column of its own: its connector's row lock serializes
 * the writes, and If-Match is compared with the resource as it is under that lock.
 */
async function lockResourceForWrite(
  tx: Prisma.TransactionClient,
  where: Prisma.StoredResourceWhereInput,
  resource: { connectorId: string; connector: { orgId: string } },
  ifMatch: IfMatch | undefined,
): Promise<void> {
  await lockForWrite(tx, { table: "connectors", id: resource.connectorId, orgId: resource.connector.orgId, what: "resource" }, ifMatch, () =>
    tx.storedResource.findFirst({ where, select: resourceSelect }),
  );
}

/** Deletes a stored resource of a connector the caller manages. */
export async function deleteStoredResource(caller: Caller, resourceId: string, ifMatch?: IfMatch): Promise<void> {
  assertCredentialMay(caller, "connectors.manage");
  await db().$transaction(async (tx) => {
    const where = { id: resourceId, AND: [managedResources(caller)] };
    const resource = await tx.storedResource.findFirst({ where, select: { connectorId: true, uri: true, connector: { select: { orgId: true } } } });
    if (!resource) throw new NotFoundError("resource");
    await lockResourceForWrite(tx, where, resource, ifMatch);
    const { count } = await tx.storedResource.deleteMany({ where });
    if (count === 0) throw new NotFoundError("resource");
    configVersion.markBumped(resource.connector.orgId); // by the mcp_resources trigger, in this transaction
    await recordAuditEvent(
      caller,
      {
        orgId: resource.connector.orgId,
        action: "resource.delete",
        targetType: "stored_resource",
        targetId: resourceId,
        data: { connectorId: resource.connectorId, uri: resource.uri },
      },
      tx,
    );
  });
}

/** Deletes several stored resources, each exactly as `deleteStoredResource` (and audited on its own). */
export function deleteStoredResources(caller: Caller, ids: string[]): Promise<BulkResult> {
  return runBulk(ids, (id) => deleteStoredResource(caller, id));
}
