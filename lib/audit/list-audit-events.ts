import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { NotFoundError } from "@/lib/errors";
import { keyWorkspaceOf, orgsManagedBy } from "@/lib/tenancy/scopes";
import { type Page, pageOf } from "@/lib/api/pagination";
import type { AuditFilters, AuditQuery } from "@/lib/audit/schemas";
import { type AuditNames, nameAuditEvents, toolCallOf } from "@/lib/audit/audit-names";
import { callEndingsWritten } from "@/lib/audit/write-call-rows";

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
  traceId: true,
} as const satisfies Prisma.AuditEventSelect;
type AuditRow = Prisma.AuditEventGetPayload<{ select: typeof auditSelect }>;
export type AuditEventView = AuditRow & { names: AuditNames; toolCall: ReturnType<typeof toolCallOf> };

async function assertAuditReader(caller: Caller, orgId: string): Promise<void> {
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
}

/** Tool-call filters read the event's data (what the call recorded). */
function dataFilters(f: AuditFilters): Prisma.AuditEventWhereInput[] {
  const filters: Prisma.AuditEventWhereInput[] = [];
  if (f.serverId) filters.push({ data: { path: ["serverId"], equals: f.serverId } });
  if (f.tool) filters.push({ action: "tool.call", data: { path: ["tool"], equals: f.tool } });
  if (f.outcome === "started") filters.push({ action: "tool.call", data: { path: ["status"], equals: "started" } });
  else if (f.outcome) filters.push({ action: "tool.call", data: { path: ["outcome"], equals: f.outcome } });
  return filters;
}

function auditWhere(caller: Caller, orgId: string, f: AuditFilters): Prisma.AuditEventWhereInput {
  const { since, until } = f;
  // An API key reads its own workspace's events and the org-level ones (no workspace: connectors,
  // roles, members, which it reads whole anyway), never another workspace's (keyWorkspaceOf says why).
  const keyWorkspace = keyWorkspaceOf(caller);
  return {
    orgId,
    org: orgsManagedBy(caller),
    action: f.action,
    actorId: f.actorId,
    targetType: f.targetType,
    targetId: f.targetId,
    workspaceId: f.workspaceId,
    ...(since || until ? { createdAt: { gte: since ? new Date(since) : undefined, lte: until ? new Date(until) : undefined } } : {}),
    AND: [...dataFilters(f), ...(keyWorkspace ? [{ OR: [{ workspaceId: keyWorkspace }, { workspaceId: null }] }] : [])],
  };
}

async function auditPage(caller: Caller, orgId: string, query: AuditQuery): Promise<Page<AuditEventView>> {
  // Read-your-writes on this instance: a call answered a moment ago shows how it ended, though
  // its ending is written after the answer (lib/audit/write-call-rows.ts).
  await callEndingsWritten();
  const where = auditWhere(caller, orgId, query);
  const page = await pageOf({ cursor: query.cursor, limit: query.limit }, (args) =>
    db().auditEvent.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: auditSelect, ...args }),
  );
  const named = await nameAuditEvents(orgId, page.items);
  return { items: named.map((e) => ({ ...e, toolCall: toolCallOf(e) })), nextCursor: page.nextCursor };
}

/**
 * An organization's audit log, newest first, for its owners and admins. Filters narrow it by
 * action, actor, target, workspace, time range (`since`/`until` inclusive) and, for tool calls,
 * server, tool and outcome. Every event carries the names of what it mentions.
 */
export async function listAuditEvents(caller: Caller, orgId: string, query: AuditQuery): Promise<Page<AuditEventView>> {
  assertCredentialMay(caller, "audit.read");
  await assertAuditReader(caller, orgId);
  return auditPage(caller, orgId, query);
}

/**
 * Every event of a filter, newest first, a page at a time: an export of any size is read (and
 * can be streamed) without holding the whole log. Access is checked at once (a 404 is answered
 * before anything is streamed), the pages are read as they are consumed.
 */
export async function auditEventsOf(caller: Caller, orgId: string, filters: AuditFilters, pageSize = 500): Promise<AsyncGenerator<AuditEventView[]>> {
  assertCredentialMay(caller, "audit.read");
  await assertAuditReader(caller, orgId);
  return (async function* pages() {
    let cursor: string | undefined;
    do {
      const page = await auditPage(caller, orgId, { ...filters, cursor, limit: pageSize });
      yield page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  })();
}
