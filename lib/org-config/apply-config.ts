import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { ForbiddenError, NotFoundError, PreconditionFailedError, ValidationError, type FieldError } from "@/lib/errors";
import { keyWorkspaceOf, orgsManagedBy, pinnedServerOf } from "@/lib/tenancy/scopes";
import { lockRow } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { reloadConnector, UpstreamUnavailableError } from "@/lib/connectors/reload-connector";
import { permits, roleIn } from "@/lib/permissions/guards";
import { type Action, PERMISSIONS } from "@/lib/permissions/table";
import { errorText } from "@/lib/log";
import { deleteQueuedBlobs } from "@/lib/files/delete-queued-blobs";
import { type CanonicalDocument, canonicalDocument } from "@/lib/org-config/canonical";
import { type ReadConfig, readOrgConfig } from "@/lib/org-config/export-config";
import { planChanges } from "@/lib/org-config/plan-config";
import { readOrgSecrets, resolveSecretReferences } from "@/lib/org-config/secrets";
import { assertValidReferences } from "@/lib/org-config/validate-config";
import { writeChanges } from "@/lib/org-config/write-config";
import { resolvedAuth } from "@/lib/org-config/config-auth";
import type { ConfigChange, OrgConfigDocument } from "@/lib/org-config/schemas";

/**
 * Plan and apply of a configuration document (docs/configuration-as-code.md). The plan is made
 * against the organization as one transaction reads it; the apply makes that plan and writes it
 * in the same transaction, under the organization's row lock, so it is all or nothing and a
 * plan made on stale state (If-Match) is refused.
 */

type Tx = Prisma.TransactionClient;

export interface ConfigPlanResult {
  changes: ConfigChange[];
  /** The ETag of the configuration the plan was made against. */
  etag: string;
}

interface Planned extends ConfigPlanResult {
  current: ReadConfig;
  desired: CanonicalDocument;
  secrets: Map<string, string>;
  /** The resolved secret headers and auth of the connectors the plan writes (checked by the plan, written by the apply). */
  headers: Map<string, Record<string, string>>;
  auth: ReturnType<typeof resolvedAuth>;
}

async function makePlan(tx: Tx, caller: Caller, orgId: string, doc: OrgConfigDocument, prune: boolean): Promise<Planned> {
  const current = await readOrgConfig(tx, caller, orgId);
  // A document without `settings` leaves them as they are, as it leaves the objects it omits
  // (a partial document that only adds a role must not turn audit retention off).
  const desired = { ...canonicalDocument(doc), ...(doc.settings === undefined ? { settings: current.document.settings } : {}) };
  assertOwnWorkspaceOnly(caller, current.document, desired);
  assertValidReferences(desired, current.document, prune);
  const secrets = await readOrgSecrets(tx, orgId);
  const changes = planChanges({
    current: current.document,
    desired,
    prune,
    currentHeaders: current.headerValues,
    currentClientSecrets: current.clientSecrets,
    resolveHeader: (value) => resolveSecretReferences(value, secrets),
  });
  const planned = { changes, etag: current.etag, current, desired, secrets };
  if (changes.length === 0) return { ...planned, headers: new Map(), auth: new Map() };
  // What the apply would refuse, the plan refuses alike: a permission the credential lacks, a secret not set.
  await assertMayWrite(tx, caller, orgId, changes);
  return { ...planned, headers: resolvedHeaders(planned), auth: resolvedAuth(planned) };
}

/** The changes the document would make; nothing is written. */
export async function planOrgConfig(caller: Caller, orgId: string, doc: OrgConfigDocument, prune: boolean): Promise<ConfigPlanResult> {
  return db().$transaction(
    async (tx) => {
      const { changes, etag } = await makePlan(tx, caller, orgId, doc, prune);
      return { changes, etag };
    },
    { isolationLevel: "RepeatableRead" },
  );
}

export interface ConfigApplyResult extends ConfigPlanResult {
  discovery: { connector: string; ok: boolean; error?: string }[];
}

/**
 * Applies the document: its plan, written in one transaction and audited with it. mcp
 * connectors that were created or pointed elsewhere are discovered again after the commit
 * (their tools in the document are for review only).
 */
export async function applyOrgConfig(caller: Caller, orgId: string, doc: OrgConfigDocument, opts: { prune: boolean; ifMatch?: IfMatch }): Promise<ConfigApplyResult> {
  // A key pinned to one MCP server acts on that server only; a document is the whole organization.
  if (pinnedServerOf(caller)) throw new ForbiddenError("A key pinned to one MCP server cannot apply an organization's configuration.");
  const applied = await db().$transaction(
    async (tx) => {
      const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
      if (!org || !(await lockRow(tx, "organizations", orgId, orgId))) throw new NotFoundError("organization");
      const plan = await makePlan(tx, caller, orgId, doc, opts.prune);
      if (opts.ifMatch !== undefined && opts.ifMatch !== "*" && !opts.ifMatch.includes(plan.etag)) {
        throw new PreconditionFailedError("The organization's configuration changed after the plan was made; nothing was changed. Plan again.");
      }
      if (plan.changes.length === 0) return { ...plan, rediscover: [] as string[], storageKeys: [] as string[] };
      const ids = plan.current.ids;
      const storageKeys = await writeChanges({ tx, orgId, desired: plan.desired, ids, headers: plan.headers, auth: plan.auth }, plan.changes);
      await configVersion.bump(tx, orgId);
      await recordAuditEvent(caller, { orgId, action: "org.config.apply", targetType: "org", targetId: orgId, data: { prune: opts.prune, changes: plan.changes as Prisma.InputJsonValue } }, tx);
      const after = await readOrgConfig(tx, caller, orgId);
      return { ...plan, etag: after.etag, rediscover: toRediscover(plan), storageKeys };
    },
    // One snapshot for the plan and its If-Match; a write another request committed after it
    // has bumped the organization's row, so locking that row fails (409, plan again) instead of
    // writing over a change the plan never saw.
    { timeout: 60_000, isolationLevel: "RepeatableRead" },
  );
  await deleteQueuedBlobs(applied.storageKeys);
  const discovery = [];
  for (const slug of applied.rediscover) discovery.push(await rediscover(caller, orgId, slug));
  return { changes: applied.changes, etag: discovery.length > 0 ? (await readOrgConfigNow(caller, orgId)).etag : applied.etag, discovery };
}

async function readOrgConfigNow(caller: Caller, orgId: string): Promise<ReadConfig> {
  return db().$transaction((tx) => readOrgConfig(tx, caller, orgId), { isolationLevel: "RepeatableRead" });
}

async function rediscover(caller: Caller, orgId: string, slug: string): Promise<ConfigApplyResult["discovery"][number]> {
  const row = await db().connector.findFirst({ where: { orgId, slug }, select: { id: true } });
  if (!row) return { connector: slug, ok: false, error: "The connector is gone." };
  try {
    await reloadConnector(caller, row.id);
    return { connector: slug, ok: true };
  } catch (e) {
    // The apply committed: the connector is as the document says; only its tools wait for the upstream.
    const reason = e instanceof UpstreamUnavailableError ? e.reason : errorText(e);
    return { connector: slug, ok: false, error: `${reason} The connector is saved as the document says, with the tools it had (none when new); reload it once the upstream answers (POST /connectors/${row.id}/reload, or Reload in the console).` };
  }
}

/** mcp connectors created, or whose upstream, protocol, headers or auth changed. */
function toRediscover(plan: Planned): string[] {
  const upstream = /^(url|protocolEra|transport|headers|auth)(\.|$)/;
  return plan.changes
    .filter((c) => c.kind === "connector" && c.action !== "delete")
    .filter((c) => plan.desired.connectors.find((x) => x.slug === c.name)?.type === "mcp")
    .filter((c) => c.action === "create" || (c.fields ?? []).some((f) => upstream.test(f.path)))
    .map((c) => c.name);
}

/**
 * The secret headers of each connector whose headers change, resolved; a header that is stored
 * already keeps its value when its reference is not set; 422 naming each secret a new header lacks.
 */
function resolvedHeaders(plan: Omit<Planned, "headers" | "auth">): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  const errors: FieldError[] = [];
  for (const change of plan.changes) {
    if (change.kind !== "connector" || change.action === "delete") continue;
    if (change.action === "update" && !(change.fields ?? []).some((f) => f.path.startsWith("headers."))) continue;
    const index = plan.desired.connectors.findIndex((c) => c.slug === change.name);
    const headers: Record<string, string> = {};
    const stored = plan.current.headerValues.get(change.name) ?? {};
    for (const [name, value] of Object.entries(plan.desired.connectors[index].headers)) {
      const resolved = resolveSecretReferences(value, plan.secrets) ?? stored[name] ?? null;
      if (resolved === null) {
        const missing = [...value.matchAll(/\$\{secret:([^}]*)\}/g)].map((m) => m[1]).filter((s) => !plan.secrets.has(s));
        errors.push({ path: `connectors.${index}.headers.${name}`, message: `The secret ${missing.map((s) => `"${s}"`).join(", ")} is not set: PUT /orgs/{orgId}/secrets/{name} first.` });
      } else headers[name] = resolved;
    }
    out.set(change.name, headers);
  }
  if (errors.length > 0) throw new ValidationError(errors, "Some secret references are not set; nothing was changed.");
  return out;
}

/**
 * The permission table (lib/permissions/table.ts) for each kind of object the plan writes, as
 * the one-object endpoints ask it: the audit settings are an owner's (org.owner_settings), roles
 * roles.manage, and so on. A key capped below its person's role, or an OAuth token, is refused
 * here what it would be refused there.
 */
async function assertMayWrite(tx: Tx, caller: Caller, orgId: string, changes: ConfigChange[]): Promise<void> {
  const role = await roleIn(tx, caller, orgId);
  const actions = new Set<Action>(["workspace.manage"]);
  for (const c of changes) {
    if (c.kind === "settings") actions.add("org.owner_settings");
    else if (c.kind === "role") actions.add("roles.manage");
    else if (c.kind === "skill") actions.add("skills.manage");
    else if (c.kind === "server") actions.add(c.action === "create" ? "servers.create" : "servers.manage");
  }
  for (const action of actions) {
    if (!permits(caller, role, action)) throw new ForbiddenError(`This credential may not apply this document: it may not ${PERMISSIONS[action].says} (${action}).`);
  }
}

/** An API key acts in its own workspace: a document naming another is not its to plan or apply (403). */
function assertOwnWorkspaceOnly(caller: Caller, current: CanonicalDocument, desired: CanonicalDocument): void {
  if (keyWorkspaceOf(caller) === null) return;
  const own = new Set(current.workspaces.map((w) => w.slug));
  const others = desired.workspaces.filter((w) => !own.has(w.slug)).map((w) => `"${w.slug}"`);
  if (others.length > 0) throw new ForbiddenError(`An API key acts in its own workspace only; this document also names the workspace ${others.join(", ")}. Use a signed-in session or the instance credential.`);
}
