import { db } from "@/lib/db/client";

/**
 * Names for the ids an audit page holds, looked up once per kind for the whole page (never per
 * event) and always inside the event's own organization. An id that names nothing any more is
 * shown as "(deleted)": the log keeps ids, the objects it speaks of may be gone.
 */
export const DELETED = "(deleted)";

export interface AuditNames {
  actor: string | null;
  workspace: string | null;
  target: string | null;
  server: string | null;
  connector: string | null;
}

export interface NameableEvent {
  workspaceId: string | null;
  actorId: string | null;
  targetType: string;
  targetId: string | null;
  data: unknown;
}

type Lookup = (orgId: string, ids: string[]) => Promise<{ id: string; name: string }[]>;

/** How each target type's rows are found and named (stored resources have no org column of their own). */
const LOOKUPS: Record<string, Lookup> = {
  connector: (orgId, ids) => db().connector.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  server: (orgId, ids) => db().mcpServer.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  mcp_role: (orgId, ids) => db().mcpRole.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  skill: (orgId, ids) => db().skill.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  api_key: (orgId, ids) => db().apiKey.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  file: (orgId, ids) => db().file.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  workspace: (orgId, ids) => db().workspace.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, name: true } }),
  stored_resource: (orgId, ids) => db().storedResource.findMany({ where: { connector: { orgId }, id: { in: ids } }, select: { id: true, name: true } }),
  invitation: async (orgId, ids) =>
    (await db().orgInvitation.findMany({ where: { orgId, id: { in: ids } }, select: { id: true, email: true } })).map((i) => ({ id: i.id, name: i.email })),
  org: async (orgId, ids) =>
    (await db().organization.findMany({ where: { id: { in: ids.filter((id) => id === orgId) } }, select: { id: true, name: true } })),
  // Actors and user targets: people who acted in or were named by this organization's own log.
  user: async (_orgId, ids) =>
    (await db().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } })).map((u) => ({ id: u.id, name: u.name ? `${u.name} <${u.email}>` : u.email })),
};

function dataField(data: unknown, key: string): string | null {
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

/** The ids of each kind an event mentions. */
function mentions(e: NameableEvent): [kind: string, id: string | null][] {
  return [
    ["user", e.actorId],
    ["workspace", e.workspaceId],
    [e.targetType, e.targetId],
    ["server", dataField(e.data, "serverId")],
    ["connector", dataField(e.data, "connectorId")],
  ];
}

/** Resolves every id of the page, then names each event's actor, workspace, target, server and connector. */
export async function nameAuditEvents<E extends NameableEvent>(orgId: string, events: E[]): Promise<(E & { names: AuditNames })[]> {
  const wanted = new Map<string, Set<string>>();
  for (const e of events) {
    for (const [kind, id] of mentions(e)) if (id && LOOKUPS[kind]) (wanted.get(kind) ?? wanted.set(kind, new Set()).get(kind)!).add(id);
  }
  const found = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([kind, ids]) => {
      for (const row of await LOOKUPS[kind](orgId, [...ids])) found.set(`${kind}:${row.id}`, row.name);
    }),
  );
  const nameOf = (kind: string, id: string | null) => (id && LOOKUPS[kind] ? (found.get(`${kind}:${id}`) ?? DELETED) : null);
  return events.map((e) => ({
    ...e,
    names: {
      actor: nameOf("user", e.actorId),
      workspace: nameOf("workspace", e.workspaceId),
      target: nameOf(e.targetType, e.targetId),
      server: nameOf("server", dataField(e.data, "serverId")),
      connector: nameOf("connector", dataField(e.data, "connectorId")),
    },
  }));
}

/** The calls in flight the audit log records, and the data field naming what was called. */
const CALL_NAMES: Record<string, string> = { "tool.call": "tool", "prompt.get": "prompt", "resource.read": "uri" };

/** The call in flight an event records, inline: what was called and how it ended (null for other events). */
export function toolCallOf(e: { action: string; data: unknown }): { tool: string | null; outcome: string | null; durationMs: number | null } | null {
  const named = CALL_NAMES[e.action];
  if (!named) return null;
  const data = (e.data && typeof e.data === "object" ? e.data : {}) as Record<string, unknown>;
  return {
    tool: dataField(data, named),
    // "started" and no ending: the outcome is unknown (still running, or the instance stopped
    // between the call and the write of its ending, which follows the answer).
    outcome: dataField(data, "outcome") ?? dataField(data, "status"),
    durationMs: typeof data.durationMs === "number" ? data.durationMs : null,
  };
}
