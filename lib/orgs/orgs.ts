import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay, permits, roleIn } from "@/lib/permissions/guards";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { orgsManagedBy, orgsVisibleTo } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, type PageQuery, pageOf } from "@/lib/api/pagination";
import type { CreateOrgBody, ToolAuditDetail, UpdateOrgBody } from "@/lib/orgs/schemas";
import { deleteQueuedBlobs } from "@/lib/files/delete-queued-blobs";
import { lockForWrite } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";

const orgSelect = { id: true, name: true, slug: true, toolAuditDetail: true, auditRetentionDays: true, createdAt: true, updatedAt: true } as const;
export type OrgView = { id: string; name: string; slug: string; toolAuditDetail: ToolAuditDetail; auditRetentionDays: number | null; createdAt: Date; updatedAt: Date };

/**
 * Creates an organization. Only the instance credential and the instance owner may; a user
 * who creates one becomes its owner.
 */
export async function createOrg(caller: Caller, input: CreateOrgBody): Promise<OrgView> {
  const creatorId = caller.kind === "user" && !caller.apiKey ? caller.userId : null;
  if (caller.kind !== "instance") {
    const owner = await db().user.findFirst({ where: { id: creatorId ?? "", isInstanceOwner: true }, select: { id: true } });
    if (!owner) throw new ForbiddenError("Only the instance owner or the instance credential can create organizations.");
  }
  return db().$transaction(async (tx) => {
    const org = await tx.organization.create({
      data: { ...input, ...(creatorId ? { members: { create: { userId: creatorId, role: "owner" } } } : {}) },
      select: orgSelect,
    });
    await configVersion.bump(tx, org.id);
    await recordAuditEvent(caller, { orgId: org.id, action: "org.create", targetType: "org", targetId: org.id }, tx);
    return org;
  });
}

export async function listOrgs(caller: Caller, page: PageQuery): Promise<Page<OrgView>> {
  return pageOf(page, (args) =>
    db().organization.findMany({ where: orgsVisibleTo(caller), orderBy: { id: "asc" }, select: orgSelect, ...args }),
  );
}

export async function getOrgOrThrow(caller: Caller, orgId: string): Promise<OrgView> {
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsVisibleTo(caller)] }, select: orgSelect });
  if (!org) throw new NotFoundError("organization");
  return org;
}

/** The managed organization locked for this write, checked against its If-Match. */
async function lockManagedOrg(tx: Prisma.TransactionClient, caller: Caller, orgId: string, ifMatch: IfMatch | undefined): Promise<void> {
  const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  await lockForWrite(tx, { table: "organizations", id: orgId, orgId, what: "organization" }, ifMatch, () =>
    tx.organization.findFirst({ where: { id: orgId, AND: [orgsVisibleTo(caller)] }, select: orgSelect }),
  );
}

/**
 * Updates an organization. `toolAuditDetail` decides what every admin can read of members'
 * tool calls in the audit log, so only an owner (or the instance credential) may change it;
 * the change is audited with its old and new value. So is `auditRetentionDays`: shortening it
 * deletes history every admin relies on.
 */
export async function updateOrg(caller: Caller, orgId: string, input: UpdateOrgBody, ifMatch?: IfMatch): Promise<OrgView> {
  assertCredentialMay(caller, "org.update", "A key pinned to one MCP server cannot change its organization.");
  return db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId, ifMatch);
    const before = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { toolAuditDetail: true, auditRetentionDays: true } });
    if (!before) throw new NotFoundError("organization");
    const detailChange = input.toolAuditDetail !== undefined && input.toolAuditDetail !== before.toolAuditDetail;
    if (detailChange && !(await isOwner(tx, caller, orgId))) {
      throw new ForbiddenError("Only an owner of the organization can change what tool audit events keep.");
    }
    const retentionChange = input.auditRetentionDays !== undefined && input.auditRetentionDays !== before.auditRetentionDays;
    if (retentionChange && !(await isOwner(tx, caller, orgId))) {
      throw new ForbiddenError("Only an owner of the organization can change how long audit events are kept.");
    }
    await tx.organization.updateMany({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, data: input });
    const data = {
      fields: Object.keys(input),
      ...(detailChange ? { toolAuditDetail: { from: before.toolAuditDetail, to: input.toolAuditDetail! } } : {}),
      ...(retentionChange ? { auditRetentionDays: { from: before.auditRetentionDays, to: input.auditRetentionDays! } } : {}),
    };
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(caller, { orgId, action: "org.update", targetType: "org", targetId: orgId, data }, tx);
    return tx.organization.findFirstOrThrow({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: orgSelect });
  });
}

/** Whether the permission table lets the caller take the owners' own settings of the organization. */
async function isOwner(tx: Prisma.TransactionClient, caller: Caller, orgId: string): Promise<boolean> {
  return permits(caller, await roleIn(tx, caller, orgId), "org.owner_settings");
}

/**
 * Deletes an organization and everything in it: its owners (or the instance credential) only.
 * An admin cannot remove an owner nor shorten the audit log, so it must not be able to delete
 * the organization, its owners' memberships and its whole audit log at once either (403).
 */
export async function deleteOrg(caller: Caller, orgId: string, ifMatch?: IfMatch): Promise<void> {
  const storageKeys = await db().$transaction(async (tx) => {
    await lockManagedOrg(tx, caller, orgId, ifMatch);
    if (!(await isOwner(tx, caller, orgId))) throw new ForbiddenError("Only an owner of the organization can delete it.");
    // The cascade's trigger queues these blobs in this transaction; the keys let us delete them right after it.
    const files = await tx.file.findMany({ where: { orgId }, select: { storageKey: true } });
    // Bumped although the row goes: the bump is what announces the change, and live sessions
    // of the organization then find it gone and end.
    await configVersion.bump(tx, orgId);
    const { count } = await tx.organization.deleteMany({ where: { id: orgId, AND: [orgsManagedBy(caller)] } });
    if (count === 0) throw new NotFoundError("organization");
    return files.map((f) => f.storageKey);
  });
  await deleteQueuedBlobs(storageKeys);
  // The org's own audit rows go with it; the deletion is recorded instance-wide.
  await recordAuditEvent(caller, { orgId: null, action: "org.delete", targetType: "org", targetId: orgId });
}
