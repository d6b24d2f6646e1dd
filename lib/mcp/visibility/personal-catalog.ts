import { LRUCache } from "lru-cache";
import type { Caller } from "@/lib/auth/caller";
import { setting } from "@/lib/config/settings";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { sendUpstream } from "@/lib/connectors/runtime/send-upstream";
import { discoverCatalog, EMPTY_CATALOG, type UpstreamCatalog } from "@/lib/connectors/upstream-catalog";
import { exposedToolNames } from "@/lib/mcp/surface/tool-names";
import { capViewCatalog } from "@/lib/mcp/visibility/cap-view-catalog";
import { whitelistKey } from "@/lib/mcp/visibility/load-access";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { processState } from "@/lib/process-state";

/**
 * Issue 24 point 4: a `per_user` connector's upstream resources, templates and prompts are
 * each person's own — the upstream lists them for the account the token belongs to. So in a
 * caller's view they are listed from the caller's own connection (cached per person for a
 * minute), never from the catalog discovered with the first admin's connection, nor from
 * another person's. Without a connection (or for the instance credential) there are none.
 * Tools stay the connector's (discovered once, point 5).
 */

const CATALOG_TTL_MS = 60_000;
/**
 * How long a failed listing (upstream down or hanging) is remembered: the person's items of that
 * connector are absent meanwhile, rather than each of their requests waiting out the connect
 * timeout again.
 */
const FAILURE_TTL_MS = 30_000;

interface PersonalView {
  base: CallerView;
  catalogs: UpstreamCatalog[];
  view: CallerView;
}

const globalForPersonal = processState<{ switchboardPersonalCatalogs?: LRUCache<string, Promise<UpstreamCatalog | null>>; switchboardPersonalViews?: LRUCache<string, PersonalView> }>();
const catalogs = (globalForPersonal.switchboardPersonalCatalogs ??= new LRUCache({ max: 10_000, ttl: CATALOG_TTL_MS }));
const views = (globalForPersonal.switchboardPersonalViews ??= new LRUCache({ max: 10_000 }));

/** `view` with its per_user connectors' catalogs replaced by the caller's own (the same object while nothing changed). */
export async function personalView(caller: Caller, view: CallerView): Promise<CallerView> {
  const perUser = view.connectors.filter((c) => c.perUser);
  if (perUser.length === 0) return view;
  const userId = caller.kind === "user" ? caller.userId : null;
  const own = await Promise.all(perUser.map(async (c) => (userId ? ((await catalogOf(userId, view, c)) ?? EMPTY_CATALOG) : EMPTY_CATALOG)));
  const key = `${userId ?? "instance"}|${view.snapshot.server.id}`;
  const known = views.get(key);
  if (known && known.base === view && known.catalogs.every((c, i) => c === own[i])) return known.view;
  const byConnector = new Map(perUser.map((c, i) => [c.id, own[i]]));
  const personal = { ...view, connectors: named(view, view.connectors.map((c) => withCatalog(view, c, byConnector.get(c.id)))) };
  views.set(key, { base: view, catalogs: own, view: personal });
  return personal;
}

/** The person's catalog of `connector`, listed through their own connection; null when they have none usable. */
function catalogOf(userId: string, view: CallerView, connector: SnapshotConnector): Promise<UpstreamCatalog | null> {
  const key = `${userId}|${connector.id}|${view.snapshot.configVersion}`;
  let listed = catalogs.get(key);
  if (!listed) {
    const attempt = listFor(userId, view, connector);
    const promise = attempt.then((outcome) => (outcome === "failed" ? null : outcome));
    listed = promise;
    catalogs.set(key, promise);
    void attempt.then((outcome) => {
      if (catalogs.get(key) !== promise) return;
      // No connection: nothing to keep, a person who connects next sees their catalog on the next request.
      if (outcome === null) catalogs.delete(key);
      else if (outcome === "failed") catalogs.set(key, promise, { ttl: FAILURE_TTL_MS });
    });
  }
  return listed;
}

/** The person's catalog; null without a usable connection; "failed" when the upstream did not answer it. */
async function listFor(userId: string, view: CallerView, connector: SnapshotConnector): Promise<UpstreamCatalog | null | "failed"> {
  const { server } = view.snapshot;
  const timeout = setting("UPSTREAM_CALL_TIMEOUT_MS");
  const sent = await sendUpstream(
    {
      owner: { orgId: server.orgId, workspaceId: server.workspaceId, userId, connectorId: connector.id },
      connector,
      configVersion: view.snapshot.configVersion,
      work: (connection) => discoverCatalog(connection.client, { timeout, signal: AbortSignal.timeout(timeout) }, connector.config.url),
    },
    upstreamPool(),
  ).catch(() => null);
  if (sent?.ok) return sent.value;
  return sent?.kind === "needs_connection" ? null : "failed";
}

function withCatalog(view: CallerView, c: SnapshotConnector, catalog: UpstreamCatalog | undefined): SnapshotConnector {
  if (!catalog) return c;
  const access = view.access;
  // The caller's role whitelist names prompts as it does for every connector.
  const prompts = catalog.prompts.filter((p) => access?.kind !== "whitelist" || access.prompts.has(whitelistKey(c.id, p.name)));
  return {
    ...c,
    // Its own connection's initialize instructions when neither the admin nor a shared discovery gave any.
    instructions: c.instructions ?? (catalog.instructions || null),
    prompts: prompts.map((p) => ({ ...p, connectorId: c.id, exposedName: p.name })),
    upstream: { resources: catalog.resources, resourceTemplates: catalog.resourceTemplates, subscribe: catalog.subscribe, completions: catalog.completions },
  };
}

/** Prompt names as the snapshot gives them (prefixed on a clash), over what this caller sees; then the per-server cap. */
function named(view: CallerView, connectors: SnapshotConnector[]): SnapshotConnector[] {
  const names = exposedToolNames(connectors.flatMap((c) => c.prompts.map((p) => ({ connectorSlug: c.slug, name: p.name }))));
  let j = 0;
  const renamed = connectors.map((c) => ({ ...c, prompts: c.prompts.map((p) => ({ ...p, exposedName: names[j++] })) }));
  return capViewCatalog(renamed, view.snapshot.server.id);
}
