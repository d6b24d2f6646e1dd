import { LRUCache } from "lru-cache";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { workspacesJoinedBy } from "@/lib/tenancy/scopes";
import type { ServerSnapshot, SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import { exposedToolNames } from "@/lib/mcp/surface/tool-names";
import { asCatalog } from "@/lib/connectors/upstream-catalog";
import { applyToolOverrides, nameTools } from "@/lib/mcp/visibility/apply-tool-overrides";
import { servedToolFields } from "@/lib/mcp/visibility/served-tool-fields";
import { servableTool } from "@/lib/connectors/tool-approval";
import { processState } from "@/lib/process-state";
import { asConnectorAuth } from "@/lib/connectors/upstream-auth/auth-settings";

/**
 * Loads a server's snapshot, reusing the cached one while the org's config version is
 * unchanged. Every admin change bumps that version (lib/audit/record-audit-event.ts), so a
 * change made through any instance is seen by every instance on its next request.
 */

/** Servers one instance keeps a snapshot of; the least recently used go first. */
const MAX_SNAPSHOTS = 2_000;

const globalForSnapshots = processState<{ switchboardSnapshotCache?: LRUCache<string, ServerSnapshot> }>();
const cache = (globalForSnapshots.switchboardSnapshotCache ??= new LRUCache({ max: MAX_SNAPSHOTS }));

/**
 * MCP servers a caller can reach at all: the instance credential every one; a user those of
 * the workspaces it works in (a member, or an admin of the org); an API key only its own
 * workspace's, and only its server when it is pinned to one (only the chosen ones for an
 * OAuth grant). Who sees which tools of a
 * reachable server is lib/mcp/visibility/load-access.ts's business.
 */
export function serversReachableBy(caller: Caller): Prisma.McpServerWhereInput {
  if (caller.kind === "instance") return {};
  const key = caller.apiKey;
  const scope: Prisma.McpServerWhereInput = { workspace: workspacesJoinedBy(caller) };
  if (!key) return scope;
  return { AND: [scope, { orgId: key.orgId, workspaceId: key.workspaceId }, key.serverId ? { id: key.serverId } : {}, key.serverIds ? { id: { in: key.serverIds } } : {}] };
}

const headSelect = {
  id: true,
  orgId: true,
  workspaceId: true,
  org: { select: { configVersion: true, toolAuditDetail: true } },
  workspace: { select: { toolWhitelistsEnabled: true } },
} satisfies Prisma.McpServerSelect;

/**
 * The server's org, workspace and current config version, or null when the server is missing
 * or out of the caller's reach (the same answer).
 */
export async function findServerHead(caller: Caller, serverId: string) {
  return db().mcpServer.findFirst({ where: { id: serverId, AND: [serversReachableBy(caller)] }, select: headSelect });
}

/** The heads of every server of an API key's workspace it may reach (only its server when pinned), oldest first. */
export async function findWorkspaceServerHeads(caller: Caller, key: { orgId: string; workspaceId: string; serverId: string | null }) {
  return db().mcpServer.findMany({
    where: { orgId: key.orgId, workspaceId: key.workspaceId, ...(key.serverId ? { id: key.serverId } : {}), AND: [serversReachableBy(caller)] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: headSelect,
  });
}

export type ServerHead = NonNullable<Awaited<ReturnType<typeof findServerHead>>>;

export async function loadServerSnapshot(head: ServerHead): Promise<ServerSnapshot> {
  const cached = cache.get(head.id);
  if (cached && cached.configVersion === head.org.configVersion) return cached;
  const snapshot = await buildSnapshot(head);
  cache.set(head.id, snapshot);
  return snapshot;
}

/** Forgets a cached snapshot (tests). */
export function dropCachedSnapshot(serverId: string): void {
  cache.delete(serverId);
}

const connectorSelect = {
  id: true, orgId: true, slug: true, name: true, type: true, instructions: true, config: true, upstreamCatalog: true, toolApproval: true, auth: true,
  tools: { orderBy: [{ position: "asc" }, { name: "asc" }], select: { name: true, title: true, description: true, inputSchema: true, request: true, outputSchema: true, annotations: true, icons: true, execution: true, meta: true, response: true, approvalState: true, approvedDefinition: true } },
  resources: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, uri: true, name: true, description: true, mimeType: true, fetchConfig: true } },
  graphEntities: { orderBy: { key: "asc" }, select: { key: true, label: true, description: true } },
  graphRelations: { orderBy: { id: "asc" }, select: { fromKey: true, toKey: true, kind: true, description: true } },
} satisfies Prisma.ConnectorSelect;

type LoadedConnector = Prisma.ConnectorGetPayload<{ select: typeof connectorSelect }>;

async function buildSnapshot(head: ServerHead): Promise<ServerSnapshot> {
  const { orgId, workspaceId } = head;
  // Read the version first: a change committed while we load makes the snapshot look older
  // than it is, so it is rebuilt next time rather than served stale forever.
  const configVersion = head.org.configVersion;
  const [server, workspace, links, skills, overrides] = await Promise.all([
    db().mcpServer.findFirstOrThrow({ where: { id: head.id, orgId }, select: { id: true, orgId: true, workspaceId: true, name: true, instructions: true } }),
    db().workspace.findFirstOrThrow({ where: { id: workspaceId, orgId }, select: { id: true, knowledgeGraphEnabled: true, toolWhitelistsEnabled: true } }),
    // The organization and the assignment are re-checked here, in the query itself.
    db().mcpServerConnector.findMany({
      where: { serverId: head.id, orgId, connector: { orgId } },
      orderBy: [{ position: "asc" }, { connectorId: "asc" }],
      select: {
        connector: { select: connectorSelect },
      },
    }),
    db().skill.findMany({
      where: { workspaceId, orgId, applied: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, name: true, content: true, connectorId: true },
    }),
    db().toolOverride.findMany({
      where: { serverId: head.id, orgId },
      select: { connectorId: true, tool: true, name: true, title: true, description: true, annotations: true, hidden: true },
    }),
  ]);
  // The tools as their connectors define them, then this server's curation, then the names.
  const defined = toSnapshotConnectors(links.map((l) => l.connector));
  const connectors = nameTools(applyToolOverrides(defined, overrides));
  return { configVersion, org: { toolAuditDetail: head.org.toolAuditDetail }, server, workspace, connectors, sharedToolNames: sharedNames(defined), skills };
}

/** The own tool names more than one connector has (hidden ones and those a role withholds count too). */
function sharedNames(connectors: SnapshotConnector[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const c of connectors) for (const name of new Set(c.tools.map((t) => t.name))) (seen.has(name) ? shared : seen).add(name);
  return shared;
}

/** The connectors' tools as served before any server's curation (exposed names come after it). */
function toSnapshotConnectors(rows: LoadedConnector[]): SnapshotConnector[] {
  const catalogs = rows.map((c) => asCatalog(c.type === "mcp" ? c.upstreamCatalog : null));
  // Prompts are a namespace of their own, named on a clash exactly like tools.
  const promptNames = exposedToolNames(rows.flatMap((c, n) => catalogs[n].prompts.map((p) => ({ connectorSlug: c.slug, name: p.name }))));
  let j = 0;
  return rows.map((c, n) => ({
    id: c.id,
    orgId: c.orgId,
    slug: c.slug,
    name: c.name,
    type: c.type,
    // The admin's own instructions; without them, those the upstream sent at initialize.
    instructions: c.instructions?.trim() ? c.instructions : catalogs[n].instructions || null,
    config: (c.config ?? {}) as SnapshotConnector["config"],
    // A tool waiting for approval serves its approved definition, or nothing when it is new.
    tools: c.tools.flatMap((stored) => servableTool(stored, c.toolApproval) ?? []).map((t) => ({
      connectorId: c.id,
      name: t.name,
      exposedName: t.name,
      curatedName: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as Record<string, unknown>,
      request: (t.request ?? null) as SnapshotConnector["tools"][number]["request"],
      ...servedToolFields(t),
      icons: (t.icons ?? null) as SnapshotTool["icons"],
      execution: (t.execution ?? null) as SnapshotTool["execution"],
      meta: (t.meta ?? null) as SnapshotTool["meta"],
    })),
    prompts: catalogs[n].prompts.map((p) => ({ ...p, connectorId: c.id, exposedName: promptNames[j++] })),
    upstream: { resources: catalogs[n].resources, resourceTemplates: catalogs[n].resourceTemplates, subscribe: catalogs[n].subscribe, completions: catalogs[n].completions },
    storedResources: c.resources,
    graph: { entities: c.graphEntities, relations: c.graphRelations },
    ...(c.type === "mcp" && isPerUser(c.auth) ? { perUser: true } : {}),
  }));
}

function isPerUser(auth: unknown): boolean {
  const a = asConnectorAuth(auth as Prisma.JsonValue);
  return a.type === "oauth" && a.connection === "per_user";
}
