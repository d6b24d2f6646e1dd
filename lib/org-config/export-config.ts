import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { orgsManagedBy, serversManagedBy, workspacesManagedBy } from "@/lib/tenancy/scopes";
import { etagOf } from "@/lib/api/if-match";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { openHeaders } from "@/lib/connectors/secret-headers";
import { publicConfig } from "@/lib/connectors/connector-view";
import { asConnectorAuth, openClientSecret } from "@/lib/connectors/upstream-auth/auth-settings";
import { logger } from "@/lib/log";
import { type CanonicalDocument, canonicalDocument } from "@/lib/org-config/canonical";
import { toolOverrideItem } from "@/lib/servers/tool-overrides";
import { openAppliedReferences, referenceFor } from "@/lib/org-config/secret-references";
import type { ConfigConnector, OrgConfigDocument } from "@/lib/org-config/schemas";

/**
 * Reads an organization into its configuration document (lib/org-config/schemas.ts): objects
 * by slug or name, secret header values as `${secret:NAME}` references. `ReadConfig` also keeps
 * the ids and the plaintext header values, for the planner only: they never leave the server.
 */

type Tx = Prisma.TransactionClient;

export interface ReadConfig {
  orgId: string;
  document: CanonicalDocument;
  etag: string;
  /** Ids of the objects by their document key (connector slug, workspace slug, `ws/name`, role name). */
  ids: { connectors: Map<string, string>; workspaces: Map<string, string>; servers: Map<string, string>; skills: Map<string, string>; roles: Map<string, string> };
  /** Plaintext secret headers by connector slug (compared with the resolved references). */
  headerValues: Map<string, Record<string, string>>;
  /** Plaintext client secrets of the connectors' auth, by slug (none: not set or unreadable). */
  clientSecrets: Map<string, string>;
}

/** The reference an export writes for a header: `CRM_AUTHORIZATION` for crm's Authorization. */
export function defaultSecretName(connectorSlug: string, header: string): string {
  return `${connectorSlug}_${header}`.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}

export async function exportOrgConfig(caller: Caller, orgId: string): Promise<ReadConfig> {
  return db().$transaction((tx) => readOrgConfig(tx, caller, orgId), { isolationLevel: "RepeatableRead" });
}

export async function readOrgConfig(tx: Tx, caller: Caller, orgId: string): Promise<ReadConfig> {
  // The document holds roles and skills, which a pinned key or an OAuth token may not read one by one either.
  for (const action of ["roles.manage", "skills.manage"] as const) assertCredentialMay(caller, action, "This credential may not read the organization's configuration (a key pinned to one MCP server, or an OAuth token).");
  const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { toolAuditDetail: true, auditRetentionDays: true } });
  if (!org) throw new NotFoundError("organization");
  // One after another: a transaction is one connection, and pg deprecates (pg 9 refuses) a query
  // sent while another runs on it. Prisma's own nested reads still do (prisma/orm#29979).
  const connectors = await readConnectors(tx, orgId);
  const workspaces = await readWorkspaces(tx, caller, orgId);
  const roles = await readRoles(tx, orgId);
  const slugOf = new Map(connectors.map((c) => [c.id, c.slug]));
  const headerValues = new Map(connectors.map((c) => [c.slug, openOrEmpty(c.secretHeaders, c.id)]));
  const clientSecrets = new Map(connectors.flatMap((c) => openedClientSecret(c.authSecret, c.id).map((secret) => [c.slug, secret] as const)));
  const raw: OrgConfigDocument = {
    version: 1,
    settings: { toolAuditDetail: org.toolAuditDetail, auditRetentionDays: org.auditRetentionDays },
    workspaces: workspaces.map((w) => ({
      slug: w.slug,
      name: w.name,
      knowledgeGraphEnabled: w.knowledgeGraphEnabled,
      toolWhitelistsEnabled: w.toolWhitelistsEnabled,
      servers: w.servers.map((s) => ({
        name: s.name,
        instructions: s.instructions,
        connectors: s.connectors.map((l) => slugOf.get(l.connectorId)!),
        tools: s.toolOverrides.map((o) => {
          const { connectorId: _id, ...item } = toolOverrideItem(o);
          return { connector: slugOf.get(o.connectorId)!, ...item };
        }),
      })),
      skills: w.skills.map((s) => ({ name: s.name, content: s.content, connector: s.connectorId ? slugOf.get(s.connectorId)! : null, applied: s.applied })),
    })),
    connectors: connectors.map((c) => toConfigConnector(c, headerValues.get(c.slug)!, clientSecrets.get(c.slug))),
    roles: roles.map((r) => ({
      name: r.name,
      tools: r.tools.map((t) => ({ connector: slugOf.get(t.connectorId)!, tool: t.toolName })),
      prompts: r.prompts.map((p) => ({ connector: slugOf.get(p.connectorId)!, prompt: p.promptName })),
    })),
  };
  const document = canonicalDocument(raw);
  assertUniqueKeys(document);
  return {
    orgId,
    document,
    etag: etagOf(document),
    headerValues,
    clientSecrets,
    ids: {
      connectors: new Map(connectors.map((c) => [c.slug, c.id])),
      workspaces: new Map(workspaces.map((w) => [w.slug, w.id])),
      servers: new Map(workspaces.flatMap((w) => w.servers.map((s) => [`${w.slug}/${s.name}`, s.id] as const))),
      skills: new Map(workspaces.flatMap((w) => w.skills.map((s) => [`${w.slug}/${s.name}`, s.id] as const))),
      roles: new Map(roles.map((r) => [r.name, r.id])),
    },
  };
}

function readConnectors(tx: Tx, orgId: string) {
  return tx.connector.findMany({
    where: { orgId },
    orderBy: [{ slug: "asc" }],
    select: {
      id: true,
      slug: true,
      name: true,
      type: true,
      instructions: true,
      config: true,
      secretHeaders: true,
      auth: true,
      authSecret: true,
      secretRefs: true,
      protocolEra: true,
      transport: true,
      toolApproval: true,
      tools: { select: { name: true, title: true, description: true, inputSchema: true, request: true, annotations: true, outputSchema: true, response: true }, orderBy: [{ position: "asc" }, { name: "asc" }] },
      resources: { select: { uri: true, name: true, description: true, mimeType: true, fetchConfig: true }, orderBy: [{ uri: "asc" }, { id: "asc" }] },
      graphEntities: { where: { orgId }, select: { key: true, label: true, description: true } },
      graphRelations: { where: { orgId }, select: { fromKey: true, toKey: true, kind: true, description: true } },
    },
  });
}
type ConnectorRow = Awaited<ReturnType<typeof readConnectors>>[number];

/**
 * The workspaces the caller manages: an API key acts in its own workspace (and a pinned key on
 * its one server), so its document holds that workspace only, as the workspace list shows it;
 * the organization-level objects (connectors, roles, settings) stay whole, as their lists do.
 */
function readWorkspaces(tx: Tx, caller: Caller, orgId: string) {
  return tx.workspace.findMany({
    where: { orgId, AND: [workspacesManagedBy(caller)] },
    orderBy: [{ slug: "asc" }],
    select: {
      id: true,
      slug: true,
      name: true,
      knowledgeGraphEnabled: true,
      toolWhitelistsEnabled: true,
      servers: {
        where: { orgId, AND: [serversManagedBy(caller)] },
        orderBy: [{ name: "asc" }, { createdAt: "asc" }, { id: "asc" }],
        select: {
          id: true,
          name: true,
          instructions: true,
          connectors: { where: { orgId }, select: { connectorId: true }, orderBy: [{ position: "asc" }, { connectorId: "asc" }] },
          toolOverrides: { where: { orgId }, select: { connectorId: true, tool: true, name: true, title: true, description: true, annotations: true, hidden: true }, orderBy: [{ position: "asc" }, { id: "asc" }] },
        },
      },
      // The order the servers' instructions show them in (lib/mcp/visibility/load-snapshot.ts).
      skills: { where: { orgId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true, content: true, connectorId: true, applied: true } },
    },
  });
}

function readRoles(tx: Tx, orgId: string) {
  return tx.mcpRole.findMany({
    where: { orgId },
    orderBy: [{ name: "asc" }],
    select: { id: true, name: true, tools: { where: { orgId }, select: { connectorId: true, toolName: true } }, prompts: { where: { orgId }, select: { connectorId: true, promptName: true } } },
  });
}

function toConfigConnector(c: ConnectorRow, headers: Record<string, string>, clientSecret: string | undefined): NonNullable<OrgConfigDocument["connectors"]>[number] {
  // The references the last apply wrote, while the connector still holds what they resolved to.
  const applied = openAppliedReferences(c.secretRefs, c.id);
  const common = {
    slug: c.slug,
    name: c.name,
    instructions: c.instructions,
    headers: Object.fromEntries(Object.entries(headers).map(([h, value]) => [h, referenceFor(applied.headers[h], value, `\${secret:${defaultSecretName(c.slug, h)}}`)])),
    auth: configAuth(c, referenceFor(applied.clientSecret, clientSecret, `\${secret:${defaultSecretName(c.slug, "client_secret")}}`)),
    resources: c.resources.map((r) => ({ ...r, fetchConfig: (r.fetchConfig as Record<string, unknown> | null) ?? null })),
    graph: {
      entities: c.graphEntities,
      relations: c.graphRelations.map((r) => ({ from: r.fromKey, to: r.toKey, kind: r.kind, description: r.description })),
    },
  };
  const tools = c.tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Record<string, unknown>,
    ...(t.request ? { request: t.request as { method: "GET"; path: string } } : {}),
    // What an admin set on an http tool (issue 26) goes round-trip; an mcp tool's are the upstream's, discovered again.
    ...(t.request && t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
    ...(t.request && t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
    ...(t.request && t.response ? { response: t.response as { select: string } } : {}),
  }));
  const config = publicConfig(c.type, c.config);
  if (c.type === "http") return { type: "http", ...common, baseUrl: config.baseUrl ?? "", tools: tools as never };
  return { type: "mcp", ...common, url: config.url ?? "", protocolEra: c.protocolEra as "auto", transport: c.transport as "sse", toolApproval: c.toolApproval, tools };
}

/** The auth as the connector API answers it, a set client secret as the reference an export writes (`CRM_CLIENT_SECRET`). */
function configAuth(c: ConnectorRow, clientSecretReference: string): NonNullable<ConfigConnector["auth"]> {
  const auth = asConnectorAuth(c.auth);
  if (auth.type === "headers") return auth;
  const { hasClientSecret: _has, ...settings } = auth;
  return { ...settings, ...(c.authSecret ? { clientSecret: clientSecretReference } : {}) } as NonNullable<ConfigConnector["auth"]>;
}

function openedClientSecret(sealed: string | null, connectorId: string): string[] {
  try {
    const secret = openClientSecret(sealed);
    return secret === undefined ? [] : [secret];
  } catch {
    logger.warn({ connectorId }, "connector client secret cannot be decrypted");
    return [];
  }
}

function openOrEmpty(stored: string | null, connectorId: string): Record<string, string> {
  try {
    return openHeaders(stored);
  } catch {
    logger.warn({ connectorId }, "connector secret headers cannot be decrypted");
    return {};
  }
}

/** Objects keyed by name that share one: the document could not say which is which (409). */
function assertUniqueKeys(doc: CanonicalDocument): void {
  const keys = [
    ...doc.workspaces.flatMap((w) => [...w.servers.map((s) => `server "${w.slug}/${s.name}"`), ...w.skills.map((s) => `skill "${w.slug}/${s.name}"`)]),
    ...doc.connectors.flatMap((c) => c.resources.map((r) => `resource "${r.uri}" of connector "${c.slug}"`)),
  ];
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const shared = [...counts].filter(([, n]) => n > 1).map(([key, n]) => `${key} (${n} objects)`);
  if (shared.length > 0) {
    throw new ConflictError(`These objects share a name, so a document cannot tell them apart; rename all but one: ${shared.join(", ")}.`);
  }
}
