import { LRUCache } from "lru-cache";
import type { Caller } from "@/lib/auth/caller";
import { AssumedVersions, readCurrentVersion, type VersionsSeen } from "@/lib/config-version/read-current-version";
import { db } from "@/lib/db/client";
import { type AccessClass, loadAccess, loadAccessClass } from "@/lib/mcp/visibility/load-access";
import { visibleConnectors } from "@/lib/mcp/visibility/filter-view";
import { findServerHead, findWorkspaceServerHeads, loadServerSnapshot, type ServerHead } from "@/lib/mcp/visibility/load-snapshot";
import type { CallerView } from "@/lib/mcp/visibility/snapshot-types";
import { processState } from "@/lib/process-state";
import { personalView } from "@/lib/mcp/visibility/personal-catalog";

/**
 * Everything /mcp/<serverId> needs to answer one caller, or null when the server does not
 * exist for that caller (missing, another org's, another workspace's key, a key pinned to
 * another server): the endpoint answers both the same way.
 *
 * The caches of the MCP hot path live here and nowhere else. Each entry is labelled with the
 * org's configuration version it was built at and used only while that version is current
 * (lib/config-version/read-current-version.ts: one batched read, after the request arrived).
 * Every change to what a caller may see — connectors, tools, assignments, roles and their
 * whitelists, memberships, workspace settings, API key revocation — bumps that version, so a
 * change is seen on the next request on every instance, announced or not.
 * - per credential and server: the caller's view (a few entries per API key), and per API
 *   key the views of its workspace's servers (the shared endpoint);
 * - per server, access class and version: the view itself, shared by every caller of the
 *   class (lib/mcp/visibility/load-access.ts), so the surfaces published from it are too;
 * - per server: the org a server id belongs to (it never moves).
 */

interface Labelled<T> {
  version: number;
  value: T;
}

/** Credentials × servers one instance remembers views for; the least recently used go first. */
const MAX_CALLER_ENTRIES = 20_000;
const MAX_CLASS_ENTRIES = 5_000;

interface ViewCaches {
  byCaller: LRUCache<string, Labelled<CallerView | null>>;
  byClass: LRUCache<string, Labelled<CallerView>>;
  byWorkspaceKey: LRUCache<string, Labelled<CallerView[]>>;
  orgOfServer: LRUCache<string, string>;
}

const globalForViews = processState<{ switchboardViewCaches?: ViewCaches }>();
const caches = (globalForViews.switchboardViewCaches ??= {
  byCaller: new LRUCache({ max: MAX_CALLER_ENTRIES }),
  byClass: new LRUCache({ max: MAX_CLASS_ENTRIES }),
  byWorkspaceKey: new LRUCache({ max: MAX_CALLER_ENTRIES }),
  orgOfServer: new LRUCache({ max: MAX_CALLER_ENTRIES }),
});

export async function resolveCallerView(caller: Caller, serverId: string, seen?: VersionsSeen): Promise<CallerView | null> {
  const orgId = await orgOfServer(serverId);
  if (!orgId) return null;
  if (caller.kind === "user" && caller.apiKey && caller.apiKey.orgId !== orgId) return null;
  // Read before anything is loaded: a change committing meanwhile makes the entry look older
  // than its content, so it is rebuilt on the next request rather than served stale.
  const version = await readCurrentVersion(orgId, seen);
  if (version === null) return null;
  const key = `${callerKey(caller)}|${serverId}`;
  const hit = caches.byCaller.get(key);
  let view = hit && hit.version === version ? hit.value : undefined;
  if (view === undefined) {
    view = await buildCallerView(caller, serverId);
    caches.byCaller.set(key, { version, value: view });
  }
  // A per_user connector's catalog is the caller's own (lib/mcp/visibility/personal-catalog.ts).
  return view ? withPersonalCatalogs(caller, view, seen) : null;
}

/**
 * The views of every server of a user API key's workspace (only its server when pinned), for
 * the shared endpoint /mcp. Null for a
 * caller without such a key (the instance credential belongs to no workspace). One query for
 * the servers and two for the caller's role, whatever the number of servers.
 */
export async function resolveWorkspaceViews(caller: Caller, seen?: VersionsSeen): Promise<Labelled<CallerView[]> | null> {
  const key = caller.kind === "user" ? caller.apiKey : null;
  if (!key) return null;
  const version = await readCurrentVersion(key.orgId, seen);
  if (version === null) return null;
  let entry = caches.byWorkspaceKey.get(key.id);
  if (!entry || entry.version !== version) {
    const heads = await findWorkspaceServerHeads(caller, key);
    // One org and one workspace: the caller's access class is the same on every server.
    const access = heads.length > 0 ? await loadAccessClass(caller, heads[0]) : null;
    const views = access ? await Promise.all(heads.map((head) => classView(head, access))) : [];
    entry = { version, value: views };
    caches.byWorkspaceKey.set(key.id, entry);
  }
  return seen instanceof AssumedVersions ? entry : personalViews(caller, entry);
}

/**
 * `view` with the caller's own per_user catalogs (listed through their connection). Not for a
 * request that assumed its versions (a stateless tools/call, read-current-version.ts): it needs
 * no catalog — tools stay the connector's — and must reach no upstream before its audit row has
 * confirmed them.
 */
function withPersonalCatalogs(caller: Caller, view: CallerView, seen?: VersionsSeen): Promise<CallerView> | CallerView {
  return seen instanceof AssumedVersions ? view : personalView(caller, view);
}

/** Per-user catalogs in a list of views (lib/mcp/visibility/personal-catalog.ts): the same list while nothing of it changed. */
const personalLists = new WeakMap<CallerView[], Labelled<CallerView[]>>();

async function personalViews(caller: Caller, entry: Labelled<CallerView[]>): Promise<Labelled<CallerView[]>> {
  const views = await Promise.all(entry.value.map((view) => personalView(caller, view)));
  if (views.every((v, i) => v === entry.value[i])) return entry;
  const known = personalLists.get(entry.value);
  if (known && known.value.length === views.length && known.value.every((v, i) => v === views[i])) return known;
  const personal = { version: entry.version, value: views };
  personalLists.set(entry.value, personal);
  return personal;
}

function callerKey(caller: Caller): string {
  if (caller.kind === "instance") return "instance";
  return caller.apiKey ? `key:${caller.apiKey.id}` : `user:${caller.userId}`;
}

async function buildCallerView(caller: Caller, serverId: string): Promise<CallerView | null> {
  const head = await findServerHead(caller, serverId);
  if (!head) return null;
  const access = await loadAccessClass(caller, head);
  return access ? classView(head, access) : null;
}

/** The view every caller of `access` gets of the server. */
async function classView(head: ServerHead, access: AccessClass): Promise<CallerView> {
  const snapshot = await loadServerSnapshot(head);
  const classKey = `${head.id}|${access.key}`;
  const hit = caches.byClass.get(classKey);
  if (hit && hit.version === snapshot.configVersion) return hit.value;
  const view = visibleConnectors(snapshot, await loadAccess(access, head.orgId));
  caches.byClass.set(classKey, { version: snapshot.configVersion, value: view });
  return view;
}

/** The organization a server id belongs to, or null when there is no such server. */
async function orgOfServer(serverId: string): Promise<string | null> {
  const known = caches.orgOfServer.get(serverId);
  if (known) return known;
  // Not a tenant read: it tells the caller nothing. Whether this caller may reach the server
  // is findServerHead's query, made for every view built.
  const row = await db().mcpServer.findFirst({ where: { id: serverId }, select: { orgId: true } });
  if (row) caches.orgOfServer.set(serverId, row.orgId);
  return row?.orgId ?? null;
}
