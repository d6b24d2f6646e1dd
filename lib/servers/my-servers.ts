import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { serversReachableBy } from "@/lib/mcp/visibility/load-snapshot";
import { resolveCallerView } from "@/lib/mcp/visibility/resolve-view";
import { serverUrl } from "@/lib/servers/server-url";

/**
 * "My MCP servers": every server a person can use, decided exactly as /mcp/<serverId> decides
 * it (lib/mcp's reach and caller view), with the tools they get there and their own keys of
 * that workspace. For a signed-in person, not an API key (a key sees one workspace only).
 */

export interface MyServerTool {
  /** The name MCP clients call it by. */
  name: string;
  description: string;
  connectorName: string;
}

export interface MyServerKey {
  id: string;
  name: string;
  prefix: string;
  /** Pinned to this server, or usable on every server of the workspace (null). */
  serverId: string | null;
  lastUsedAt: Date | null;
}

export interface MyServer {
  id: string;
  name: string;
  url: string;
  org: { id: string; name: string };
  workspace: { id: string; name: string };
  tools: MyServerTool[];
  /** The person's live keys that open this server. */
  keys: MyServerKey[];
}

/** At most this many servers are listed (a person in more workspaces than that needs search). */
const MAX_SERVERS = 200;

export async function listMyServers(caller: Caller & { kind: "user" }, baseUrl: string): Promise<MyServer[]> {
  const servers = await db().mcpServer.findMany({
    where: { AND: [serversReachableBy(caller)] },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: MAX_SERVERS,
    select: { id: true, name: true, org: { select: { id: true, name: true } }, workspace: { select: { id: true, name: true } } },
  });
  const [views, keys] = await Promise.all([Promise.all(servers.map((s) => resolveCallerView(caller, s.id))), liveKeysOf(caller, servers.map((s) => s.workspace.id))]);
  return servers.flatMap((server, i) => {
    const view = views[i];
    if (!view) return []; // the endpoint would answer 404 to this person
    const names = new Map(view.connectors.map((c) => [c.id, c.name]));
    return [
      {
        ...server,
        url: serverUrl(baseUrl, server.id),
        tools: view.connectors.flatMap((c) => c.tools.map((t) => ({ name: t.exposedName, description: t.description, connectorName: names.get(c.id) ?? c.name }))),
        keys: keys.filter((k) => k.workspaceId === server.workspace.id && (k.serverId === null || k.serverId === server.id)),
      },
    ];
  });
}

async function liveKeysOf(caller: Caller & { kind: "user" }, workspaceIds: string[]): Promise<(MyServerKey & { workspaceId: string })[]> {
  if (workspaceIds.length === 0) return [];
  const now = new Date();
  return db().apiKey.findMany({
    where: { userId: caller.userId, workspaceId: { in: [...new Set(workspaceIds)] }, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, prefix: true, serverId: true, lastUsedAt: true, workspaceId: true },
  });
}

/** Whether any key of this person has been used to call the platform (api_keys.last_used_at). */
export async function hasUsedAKey(caller: Caller & { kind: "user" }): Promise<boolean> {
  const used = await db().apiKey.findFirst({
    where: { userId: caller.userId, lastUsedAt: { not: null }, workspace: { org: { members: { some: { userId: caller.userId } } } } },
    select: { id: true },
  });
  return used !== null;
}
