import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { serversManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { lockForWrite } from "@/lib/db/lock-row";
import { queueRowWrite } from "@/lib/db/queue-row-writes";
import type { IfMatch } from "@/lib/api/if-match";
import { overrideCollisions } from "@/lib/servers/override-collisions";
import type { SetToolOverridesBody, ToolOverrideItem } from "@/lib/servers/tool-override-schemas";

/**
 * A server's curation of its tools (`GET/PUT /servers/{id}/tool-overrides`, issue 26): the
 * whole set is replaced at once, under the server's row lock, with If-Match compared to the
 * set as this write finds it. Served by lib/mcp/visibility/apply-tool-overrides.ts.
 */

type Tx = Prisma.TransactionClient;
type Client = Tx | ReturnType<typeof db>;

export type ToolOverrideView = ToolOverrideItem & { missing: boolean };

async function findManagedServer(tx: Client, caller: Caller, serverId: string) {
  const server = await tx.mcpServer.findFirst({ where: { id: serverId, AND: [serversManagedBy(caller)] }, select: { id: true, orgId: true, workspaceId: true } });
  if (!server) throw new NotFoundError("MCP server");
  return server;
}

async function readOverrides(tx: Client, server: { id: string; orgId: string }): Promise<{ items: ToolOverrideView[] }> {
  const rows = await tx.toolOverride.findMany({ where: { serverId: server.id, orgId: server.orgId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const present = await tx.tool.findMany({
    where: { orgId: server.orgId, OR: rows.map((r) => ({ connectorId: r.connectorId, name: r.tool })) },
    select: { connectorId: true, name: true },
  });
  const exists = new Set(present.map((t) => `${t.connectorId}\u0000${t.name}`));
  return { items: rows.map((r) => ({ ...toolOverrideItem(r), missing: !exists.has(`${r.connectorId}\u0000${r.tool}`) })) };
}

type OverrideRow = { connectorId: string; tool: string; name: string | null; title: string | null; description: string | null; annotations: unknown; hidden: boolean };

/** A stored override with only the fields it sets, as the API answers it and a configuration document holds it. */
export function toolOverrideItem(r: OverrideRow): ToolOverrideItem {
  return {
    connectorId: r.connectorId,
    tool: r.tool,
    ...(r.name !== null ? { name: r.name } : {}),
    ...(r.title !== null ? { title: r.title } : {}),
    ...(r.description !== null ? { description: r.description } : {}),
    ...(r.annotations !== null ? { annotations: r.annotations as ToolOverrideItem["annotations"] } : {}),
    ...(r.hidden ? { hidden: true } : {}),
  };
}

/** Replaces a server's overrides with `items`, in their order (the API's PUT and a configuration apply). */
export async function replaceToolOverrides(tx: Tx, server: { id: string; orgId: string }, items: ToolOverrideItem[]): Promise<void> {
  await tx.toolOverride.deleteMany({ where: { serverId: server.id, orgId: server.orgId } });
  if (items.length === 0) return;
  await tx.toolOverride.createMany({
    data: items.map((item, position) => ({
      orgId: server.orgId,
      serverId: server.id,
      connectorId: item.connectorId,
      tool: item.tool,
      name: item.name ?? null,
      title: item.title ?? null,
      description: item.description ?? null,
      ...(item.annotations ? { annotations: item.annotations } : {}),
      hidden: item.hidden ?? false,
      position,
    })),
  });
}

export async function getToolOverrides(caller: Caller, serverId: string): Promise<{ items: ToolOverrideView[] }> {
  return readOverrides(db(), await findManagedServer(db(), caller, serverId));
}

/** Replaces the server's overrides; 422 for a connector not assigned to it or two colliding names. */
export async function setToolOverrides(caller: Caller, serverId: string, body: SetToolOverridesBody, ifMatch?: IfMatch): Promise<{ items: ToolOverrideView[] }> {
  return queueRowWrite("mcp_servers", serverId, () =>
    db().$transaction(async (tx) => {
      const server = await findManagedServer(tx, caller, serverId);
      await lockForWrite(tx, { table: "mcp_servers", id: server.id, orgId: server.orgId, what: "MCP server" }, ifMatch, () => readOverrides(tx, server));
      await assertFits(tx, server, body.items);
      await replaceToolOverrides(tx, server, body.items);
      await configVersion.bump(tx, server.orgId);
      await recordAuditEvent(caller, {
        orgId: server.orgId,
        workspaceId: server.workspaceId,
        action: "server.tool_overrides.set",
        targetType: "server",
        targetId: server.id,
        data: { tools: body.items.map((i) => ({ connectorId: i.connectorId, tool: i.tool, ...(i.name ? { name: i.name } : {}), ...(i.hidden ? { hidden: true } : {}) })) },
      }, tx);
      return readOverrides(tx, server);
    }),
  );
}

/** Every override names a connector assigned to the server, and no two published names collide. */
async function assertFits(tx: Tx, server: { id: string; orgId: string }, items: ToolOverrideItem[]): Promise<void> {
  const links = await tx.mcpServerConnector.findMany({
    where: { serverId: server.id, orgId: server.orgId, connector: { orgId: server.orgId } },
    select: { connector: { select: { id: true, slug: true, tools: { select: { name: true } } } } },
  });
  const assigned = new Set(links.map((l) => l.connector.id));
  const unassigned = items.flatMap((item, i) => (assigned.has(item.connectorId) ? [] : [{ path: `items.${i}.connectorId`, message: "The connector is not assigned to this server." }]));
  if (unassigned.length > 0) throw new ValidationError(unassigned);
  const tools = links.flatMap((l) => l.connector.tools.map((t) => ({ connectorId: l.connector.id, connectorSlug: l.connector.slug, name: t.name })));
  const collisions = overrideCollisions(tools, items);
  if (collisions.length > 0) throw new ValidationError(collisions, collisions[0].message);
}
