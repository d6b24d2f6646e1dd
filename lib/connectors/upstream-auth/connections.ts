import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { type Page, pageOf } from "@/lib/api/pagination";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { orgsManagedBy, orgsVisibleTo } from "@/lib/tenancy/scopes";
import { revokeUpstream } from "@/lib/connectors/upstream-auth/revoke";
import { forgetCachedToken } from "@/lib/connectors/upstream-auth/token-cache";
import { pendingStepUp } from "@/lib/connectors/upstream-auth/step-up";

/**
 * What people have connected (issue 24 point 3): a person's own list and disconnect, and an
 * owner's or admin's view of a connector's connections (who, since when; never a token).
 * Another organization's connection is "not found".
 */

export interface ConnectionView {
  id: string;
  connectorId: string;
  connectorName: string;
  connection: "per_user" | "shared";
  status: "connected" | "needs_reconnect";
  scopes: string[];
  /** A step-up pending: the scopes the next connect asks for (it has, plus what the upstream asked). Absent otherwise. */
  stepUpScopes?: string[];
  expiresAt: Date | null;
  createdAt: Date;
  /** Admin list: whose account (per_user) or who made it (shared). */
  user?: { id: string; email: string; name: string | null } | null;
}

const select = {
  id: true,
  connectorId: true,
  connection: true,
  status: true,
  scopes: true,
  // Read only for a pending step-up's scope (pendingStepUp); never part of a view.
  tokens: true,
  expiresAt: true,
  createdAt: true,
  connector: { select: { name: true } },
  madeBy: { select: { id: true, email: true, name: true } },
} satisfies Prisma.UpstreamConnectionSelect;

type Row = Prisma.UpstreamConnectionGetPayload<{ select: typeof select }>;

function view(row: Row, withUser: boolean): ConnectionView {
  const stepUp = pendingStepUp(row);
  return {
    id: row.id,
    connectorId: row.connectorId,
    connectorName: row.connector.name,
    connection: row.connection === "shared" ? "shared" : "per_user",
    status: row.status === "connected" ? "connected" : "needs_reconnect",
    scopes: Array.isArray(row.scopes) ? (row.scopes as string[]) : [],
    ...(stepUp ? { stepUpScopes: stepUp.split(" ") } : {}),
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    ...(withUser ? { user: row.madeBy } : {}),
  };
}

/** A person's connections: their own per_user ones and the shared ones they made. */
function mineWhere(caller: Caller): Prisma.UpstreamConnectionWhereInput {
  if (caller.kind !== "user") return { id: "" };
  return { org: orgsVisibleTo(caller), OR: [{ userId: caller.userId }, { connection: "shared", madeById: caller.userId }] };
}

export async function listMyConnections(caller: Caller, query: { limit: number; cursor?: string }): Promise<Page<ConnectionView>> {
  assertCredentialMay(caller, "connections.own");
  const rows = await pageOf(query, (args) => db().upstreamConnection.findMany({ where: mineWhere(caller), orderBy: [{ createdAt: "desc" }, { id: "asc" }], select, ...args }));
  return { items: rows.items.map((r) => view(r, false)), nextCursor: rows.nextCursor };
}

export async function listConnectorConnections(caller: Caller, connectorId: string, query: { limit: number; cursor?: string }): Promise<Page<ConnectionView>> {
  assertCredentialMay(caller, "connections.manage");
  const connector = await db().connector.findFirst({ where: { id: connectorId, org: orgsManagedBy(caller) }, select: { id: true } });
  if (!connector) throw new NotFoundError("connector");
  const rows = await pageOf(query, (args) => db().upstreamConnection.findMany({ where: { connectorId, org: orgsManagedBy(caller) }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select, ...args }));
  return { items: rows.items.map((r) => view(r, true)), nextCursor: rows.nextCursor };
}

/** `DELETE /me/connections/{id}`: the person's own. */
export async function deleteMyConnection(caller: Caller, connectionId: string): Promise<void> {
  assertCredentialMay(caller, "connections.own");
  await removeConnection(caller, { AND: [{ id: connectionId }, mineWhere(caller)] });
}

/** `DELETE /connections/{id}`: an owner or admin, any connection of their organization. */
export async function deleteConnection(caller: Caller, connectionId: string): Promise<void> {
  assertCredentialMay(caller, "connections.manage");
  await removeConnection(caller, { id: connectionId, org: orgsManagedBy(caller) });
}

async function removeConnection(caller: Caller, where: Prisma.UpstreamConnectionWhereInput): Promise<void> {
  const row = await db().upstreamConnection.findFirst({ where, select: { id: true, orgId: true, connectorId: true, tokens: true, connection: true, userId: true } });
  if (!row) throw new NotFoundError("connection");
  const { count } = await db().upstreamConnection.deleteMany({ where: { id: row.id, orgId: row.orgId } });
  if (count === 0) throw new NotFoundError("connection");
  forgetCachedToken(row.id);
  const revoked = await revokeUpstream(row.tokens);
  await recordAuditEvent(caller, {
    orgId: row.orgId,
    action: "connection.disconnect",
    targetType: "connector",
    targetId: row.connectorId,
    data: { connectionId: row.id, connection: row.connection, personId: row.userId, revokedUpstream: revoked },
  });
}

/**
 * A person leaving the organization (or deleted) loses their connections, revoked upstream
 * (issue 24 point 6); shared connections stay with their connector.
 */
export async function dropPersonConnections(orgId: string, userId: string): Promise<void> {
  const rows = await db().upstreamConnection.findMany({ where: { orgId, userId }, select: { id: true, tokens: true, connectorId: true } });
  if (rows.length === 0) return;
  await db().upstreamConnection.deleteMany({ where: { orgId, id: { in: rows.map((r) => r.id) } } });
  for (const row of rows) {
    forgetCachedToken(row.id);
    await revokeUpstream(row.tokens);
  }
  await recordAuditEvent({ kind: "instance" }, { orgId, action: "connection.disconnect", targetType: "user", targetId: userId, data: { connectionIds: rows.map((r) => r.id), reason: "removed from the organization" } });
}
