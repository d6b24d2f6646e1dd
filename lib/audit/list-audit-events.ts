import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { type Page, pageOf } from "@/lib/api/pagination";
import type { AuditQuery } from "@/lib/audit/schemas";

const auditSelect = {
  id: true,
  orgId: true,
  workspaceId: true,
  actorType: true,
  actorId: true,
  action: true,
  targetType: true,
  targetId: true,
  data: true,
  createdAt: true,
} as const satisfies Prisma.AuditEventSelect;
export type AuditEventView = Prisma.AuditEventGetPayload<{ select: typeof auditSelect }>;

/**
 * An organization's audit log, newest first, for its owners and admins. Filters narrow it by
 * action, actor, target, workspace and time range (`since`/`until` inclusive).
 */
export async function listAuditEvents(caller: Caller, orgId: string, query: AuditQuery): Promise<Page<AuditEventView>> {
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  const { cursor, limit, since, until, action, actorId, targetType, targetId, workspaceId } = query;
  const where: Prisma.AuditEventWhereInput = {
    orgId,
    org: orgsManagedBy(caller),
    action,
    actorId,
    targetType,
    targetId,
    workspaceId,
    ...(since || until ? { createdAt: { gte: since ? new Date(since) : undefined, lte: until ? new Date(until) : undefined } } : {}),
  };
  return pageOf({ cursor, limit }, (args) =>
    db().auditEvent.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: auditSelect, ...args }),
  );
}
