import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { db } from "@/lib/db/client";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import type { ConnectedAppListQuery } from "@/lib/oauth/endpoints";
import { assertOrgManaged } from "@/lib/connectors/managed-connector";
import { callerUserId, workspacesManagedBy } from "@/lib/tenancy/scopes";

/**
 * Connected apps: the OAuth clients a person allowed on the consent page (one grant per client
 * and endpoint), with the servers each may reach. Each person sees and revokes their own; an
 * org's admins see and revoke those of their org. Revoking stops the next request on every
 * instance: the grant is marked revoked and the org's version moves in one transaction, so a
 * resolution cached anywhere (lib/oauth/resolve-grant.ts) is looked at again and refused; the
 * client's refresh tokens for the endpoint are revoked with it, and its remembered consent
 * forgotten, so getting back in means asking the person again.
 */

export interface ConnectedAppView {
  id: string;
  clientId: string;
  clientName: string;
  userId: string;
  user: { id: string; email: string; name: string | null };
  orgId: string;
  workspaceId: string;
  resource: string;
  serverId: string | null;
  servers: { id: string; name: string }[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

const grantSelect = {
  id: true,
  clientId: true,
  userId: true,
  orgId: true,
  workspaceId: true,
  resource: true,
  serverId: true,
  serverIds: true,
  createdAt: true,
  lastUsedAt: true,
  client: { select: { name: true } },
  user: { select: { id: true, email: true, name: true } },
} as const satisfies Prisma.OauthGrantSelect;
type GrantRow = Prisma.OauthGrantGetPayload<{ select: typeof grantSelect }>;

/** The caller's own grants (an API key: those of its organization only). */
function grantsOwnedBy(caller: Caller): Prisma.OauthGrantWhereInput {
  if (caller.kind === "instance") return { id: { in: [] } };
  return { userId: caller.userId, ...(caller.apiKey ? { orgId: caller.apiKey.orgId } : {}) };
}

/** Grants the caller may see and revoke: its own, and every one of the orgs it administers. */
function grantsVisibleTo(caller: Caller): Prisma.OauthGrantWhereInput {
  if (caller.kind === "instance") return {};
  return { OR: [grantsOwnedBy(caller), { workspace: workspacesManagedBy(caller) }] };
}

/** Rows with the names of their servers (one query for all of a page). */
async function withServers(rows: GrantRow[]): Promise<ConnectedAppView[]> {
  const ids = [...new Set(rows.flatMap((r) => r.serverIds))];
  const orgIds = [...new Set(rows.map((r) => r.orgId))];
  const servers = ids.length ? await db().mcpServer.findMany({ where: { id: { in: ids }, orgId: { in: orgIds } }, select: { id: true, name: true, orgId: true } }) : [];
  const byId = new Map(servers.map((s) => [s.id, s]));
  return rows.map(({ client, serverIds, ...row }) => ({
    ...row,
    clientName: client.name || row.clientId,
    // A server deleted since is simply gone from the list (its id reaches nothing any more).
    servers: serverIds.flatMap((id) => {
      const server = byId.get(id);
      return server && server.orgId === row.orgId ? [{ id: server.id, name: server.name }] : [];
    }),
  }));
}

type ListArgsOf = ListArgs<ConnectedAppListQuery>;

async function listGrants(where: Prisma.OauthGrantWhereInput, query: ListArgsOf): Promise<Page<ConnectedAppView>> {
  const search = searchIn(query.q, (m): Prisma.OauthGrantWhereInput[] => [{ client: { name: m } }, { user: { email: m } }, { user: { name: m } }]);
  const orderBy = listOrder(query, [{ id: "asc" }], { clientName: "client.name" }) as Prisma.OauthGrantOrderByWithRelationInput[];
  const found = await pageOf(query, (args) => db().oauthGrant.findMany({ where: { revokedAt: null, AND: [where, search] }, orderBy, select: grantSelect, ...args }));
  return { ...found, items: await withServers(found.items) };
}

/** The apps the caller allowed, in every organization. */
export async function listMyConnectedApps(caller: Caller, page: ListArgsOf): Promise<Page<ConnectedAppView>> {
  if (caller.kind === "instance") throw new ForbiddenError("The instance credential allows no apps; list an organization's connected apps instead.");
  return listGrants(grantsOwnedBy(caller), page);
}

/** Every app allowed in an organization, by anyone: for its admins. */
export async function listOrgConnectedApps(caller: Caller, orgId: string, page: ListArgsOf): Promise<Page<ConnectedAppView>> {
  await assertOrgManaged(db(), caller, orgId);
  return listGrants({ orgId, AND: [grantsVisibleTo(caller)] }, page);
}

/** Revokes a connected app (one grant): effective on its next request, on every instance. */
export async function revokeConnectedApp(caller: Caller, grantId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const grant = await tx.oauthGrant.findFirst({ where: { id: grantId, revokedAt: null, AND: [grantsVisibleTo(caller)] }, select: { id: true, orgId: true, workspaceId: true, userId: true, clientId: true, resource: true, client: { select: { name: true } } } });
    if (!grant) throw new NotFoundError("Connected app");
    const now = new Date();
    const { count } = await tx.oauthGrant.updateMany({ where: { id: grant.id, orgId: grant.orgId, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) return; // revoked meanwhile by someone else
    await configVersion.bump(tx, grant.orgId);
    const ofClient = { clientId: grant.clientId, userId: grant.userId };
    await tx.oauthRefreshToken.updateMany({ where: { ...ofClient, revoked: null, resources: { array_contains: [grant.resource] } }, data: { revoked: now } });
    await tx.oauthConsent.deleteMany({ where: ofClient });
    await recordAuditEvent(caller, {
      orgId: grant.orgId,
      workspaceId: grant.workspaceId,
      action: "oauth_app.revoke",
      targetType: "oauth_client",
      targetId: grant.clientId,
      data: { grantId: grant.id, clientName: grant.client.name, userId: grant.userId, resource: grant.resource, byOwner: grant.userId === callerUserId(caller) },
    }, tx);
  });
}

/**
 * Revokes every app a person allowed, in every organization, inside `tx` (a password change):
 * whoever held the old password may have allowed an app, and its refresh token would outlive
 * the password otherwise. Effective on the apps' next request, like a revocation one by one.
 * Returns how many connected apps were revoked.
 */
export async function revokeEveryAppOf(userId: string, tx: Prisma.TransactionClient): Promise<number> {
  const grants = await tx.oauthGrant.findMany({ where: { userId, revokedAt: null }, select: { orgId: true } });
  const now = new Date();
  for (const orgId of new Set(grants.map((grant) => grant.orgId))) {
    await tx.oauthGrant.updateMany({ where: { orgId, userId, revokedAt: null }, data: { revokedAt: now } });
    await configVersion.bump(tx, orgId);
  }
  await tx.oauthRefreshToken.updateMany({ where: { userId, revoked: null }, data: { revoked: now } });
  await tx.oauthConsent.deleteMany({ where: { userId } });
  return grants.length;
}
