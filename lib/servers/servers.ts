import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError } from "@/lib/errors";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { serversManagedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import { replaceServerConnectors } from "@/lib/servers/server-connectors";
import { serverUrl } from "@/lib/servers/server-url";
import type { CreateServerBody, ServerListQuery, UpdateServerBody } from "@/lib/servers/schemas";
import { lockRow } from "@/lib/db/lock-row";
import { assertIfMatch, type IfMatch } from "@/lib/api/if-match";
import { queueRowWrite } from "@/lib/db/queue-row-writes";

/**
 * MCP servers: a workspace's `/mcp/<id>` endpoints and the connectors assigned to them.
 * Managed by the admins of the workspace's organization (and the instance credential).
 * `baseUrl` is the public origin the route passes in, to build each server's absolute `url`.
 */

type Tx = Prisma.TransactionClient;

const serverSelect = {
  id: true,
  name: true,
  workspaceId: true,
  orgId: true,
  instructions: true,
  createdAt: true,
  updatedAt: true,
  connectors: { select: { connectorId: true }, orderBy: { position: "asc" } },
} as const satisfies Prisma.McpServerSelect;

type ServerRow = Prisma.McpServerGetPayload<{ select: typeof serverSelect }>;
export type ServerView = Omit<ServerRow, "connectors"> & { url: string; connectorIds: string[] };

function toView({ connectors, ...row }: ServerRow, baseUrl: string): ServerView {
  return { ...row, url: serverUrl(baseUrl, row.id), connectorIds: connectors.map((c) => c.connectorId) };
}

const managedServer = (caller: Caller, serverId: string): Prisma.McpServerWhereInput => ({ id: serverId, AND: [serversManagedBy(caller)] });

async function findManagedServer(tx: Tx, caller: Caller, serverId: string) {
  const server = await tx.mcpServer.findFirst({ where: managedServer(caller, serverId), select: { id: true, orgId: true, workspaceId: true } });
  if (!server) throw new NotFoundError("MCP server");
  return server;
}

/**
 * The server under its row lock (held until the transaction ends): replacements of its
 * connector set wait for each other — two interleaved delete-then-insert runs would leave the
 * union, or collide on the (server, connector) key — and If-Match is compared with the server
 * as this write finds it.
 */
async function lockManagedServer(tx: Tx, caller: Caller, serverId: string, check?: { ifMatch: IfMatch | undefined; baseUrl: string }) {
  const server = await findManagedServer(tx, caller, serverId);
  if (!(await lockRow(tx, "mcp_servers", server.id, server.orgId))) throw new NotFoundError("MCP server");
  if (check?.ifMatch !== undefined) {
    const row = await tx.mcpServer.findFirst({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, select: serverSelect });
    if (!row) throw new NotFoundError("MCP server");
    assertIfMatch(check.ifMatch, toView(row, check.baseUrl));
  }
  return server;
}

/** Creates an MCP server in a workspace, optionally with its connectors (in order). */
export async function createServer(caller: Caller, workspaceId: string, input: CreateServerBody, baseUrl: string): Promise<ServerView> {
  return db().$transaction(async (tx) => {
    const workspace = await findScopedWorkspace(tx, workspaceId, workspacesManagedBy(caller));
    assertCredentialMay(caller, "servers.create", "A key pinned to one MCP server cannot create others.");
    const server = await tx.mcpServer.create({
      data: { orgId: workspace.orgId, workspaceId: workspace.id, name: input.name, instructions: input.instructions ?? null },
      select: { id: true, orgId: true },
    });
    if (input.connectorIds?.length) await replaceServerConnectors(tx, server, input.connectorIds);
    await configVersion.bump(tx, workspace.orgId);
    await recordAuditEvent(caller, {
      orgId: workspace.orgId,
      workspaceId: workspace.id,
      action: "server.create",
      targetType: "server",
      targetId: server.id,
      data: { name: input.name, connectorIds: input.connectorIds ?? [] },
    }, tx);
    return toView(await tx.mcpServer.findFirstOrThrow({ where: { id: server.id, orgId: server.orgId }, select: serverSelect }), baseUrl);
  });
}

/** Lists a managed workspace's servers; another tenant's workspace is not found. */
export async function listServers(caller: Caller, workspaceId: string, query: ListArgs<ServerListQuery>, baseUrl: string): Promise<Page<ServerView>> {
  await findScopedWorkspace(db(), workspaceId, workspacesManagedBy(caller));
  const where: Prisma.McpServerWhereInput = { workspaceId, AND: [serversManagedBy(caller)], ...searchIn(query.q, (m) => [{ name: m }]) };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.McpServerOrderByWithRelationInput[];
  const result = await pageOf(query, (args) => db().mcpServer.findMany({ where, orderBy, select: serverSelect, ...args }));
  return { ...result, items: result.items.map((row) => toView(row, baseUrl)) };
}

export async function getServer(caller: Caller, serverId: string, baseUrl: string): Promise<ServerView> {
  const row = await db().mcpServer.findFirst({ where: managedServer(caller, serverId), select: serverSelect });
  if (!row) throw new NotFoundError("MCP server");
  return toView(row, baseUrl);
}

/** Renames a server, changes its instructions and/or replaces its connectors. */
export async function updateServer(caller: Caller, serverId: string, input: UpdateServerBody, baseUrl: string, ifMatch?: IfMatch): Promise<ServerView> {
  return queueRowWrite("mcp_servers", serverId, () =>
    db().$transaction(async (tx) => {
      const server = await lockManagedServer(tx, caller, serverId, { ifMatch, baseUrl });
      const { connectorIds, ...fields } = input;
      await tx.mcpServer.update({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, data: fields, select: { id: true } });
      if (connectorIds) await replaceServerConnectors(tx, server, connectorIds);
      await configVersion.bump(tx, server.orgId);
      await recordAuditEvent(caller, {
        orgId: server.orgId,
        workspaceId: server.workspaceId,
        action: "server.update",
        targetType: "server",
        targetId: server.id,
        data: { fields: Object.keys(input), ...(connectorIds ? { connectorIds } : {}) },
      }, tx);
      return toView(await tx.mcpServer.findFirstOrThrow({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, select: serverSelect }), baseUrl);
    }),
  );
}

/** Replaces the server's connector assignment (`PUT /servers/{id}/connectors`). */
export async function setServerConnectors(caller: Caller, serverId: string, connectorIds: string[], baseUrl: string, ifMatch?: IfMatch): Promise<ServerView> {
  return queueRowWrite("mcp_servers", serverId, () =>
    db().$transaction(async (tx) => {
      const server = await lockManagedServer(tx, caller, serverId, { ifMatch, baseUrl });
      await replaceServerConnectors(tx, server, connectorIds);
      await tx.mcpServer.update({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, data: { updatedAt: new Date() }, select: { id: true } });
      await configVersion.bump(tx, server.orgId);
      await recordAuditEvent(caller, {
        orgId: server.orgId,
        workspaceId: server.workspaceId,
        action: "server.connectors.set",
        targetType: "server",
        targetId: server.id,
        data: { connectorIds },
      }, tx);
      return toView(await tx.mcpServer.findFirstOrThrow({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, select: serverSelect }), baseUrl);
    }),
  );
}

/** Deletes a server; API keys pinned to it go with it. */
export async function deleteServer(caller: Caller, serverId: string, check?: { ifMatch: IfMatch | undefined; baseUrl: string }): Promise<void> {
  await queueRowWrite("mcp_servers", serverId, () =>
    db().$transaction(async (tx) => {
      const server = await lockManagedServer(tx, caller, serverId, check);
      await tx.mcpServer.delete({ where: { id: server.id, orgId: server.orgId, AND: [serversManagedBy(caller)] }, select: { id: true } });
      await configVersion.bump(tx, server.orgId);
      await recordAuditEvent(caller, {
        orgId: server.orgId,
        workspaceId: server.workspaceId,
        action: "server.delete",
        targetType: "server",
        targetId: server.id,
      }, tx);
    }),
  );
}
