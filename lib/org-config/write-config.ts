import { Prisma } from "@/lib/generated/prisma/client";
import { sealHeaders } from "@/lib/connectors/secret-headers";
import { httpToolRows, replaceTools } from "@/lib/connectors/tool-rows";
import { replaceServerConnectors } from "@/lib/servers/server-connectors";
import { replaceToolOverrides } from "@/lib/servers/tool-overrides";
import type { ToolOverrideItem } from "@/lib/servers/tool-override-schemas";
import type { ConnectorAuthInput } from "@/lib/connectors/upstream-auth/auth-settings";
import { authData } from "@/lib/org-config/config-auth";
import { appliedHeaders, openAppliedReferences, sealAppliedReferences, type AppliedReferences } from "@/lib/org-config/secret-references";
import { changeConnectorOrigin } from "@/lib/connectors/upstream-auth/change-auth";
import { publicConfig } from "@/lib/connectors/connector-view";
import type { HttpToolInput } from "@/lib/connectors/schemas";
import type { CanonicalConnector, CanonicalDocument } from "@/lib/org-config/canonical";
import type { ReadConfig } from "@/lib/org-config/export-config";
import type { ConfigChange } from "@/lib/org-config/schemas";

/**
 * The writes of an apply, inside its transaction: the same rows the one-object endpoints write
 * (their row builders where they take a transaction client: tool rows, server connectors,
 * sealed headers). Creations and changes run parents first, deletions children first.
 */

type Tx = Prisma.TransactionClient;

export interface WriteContext {
  tx: Tx;
  orgId: string;
  desired: CanonicalDocument;
  ids: ReadConfig["ids"];
  /** Resolved secret headers of the connectors whose headers change, by slug. */
  headers: Map<string, Record<string, string>>;
  /** The auth of the connectors created or whose auth changes, client secrets resolved, by slug. */
  auth: Map<string, ConnectorAuthInput>;
}

const ORDER: ConfigChange["kind"][] = ["settings", "workspace", "connector", "role", "server", "skill"];

/** Writes the changes; answers the storage keys of the files of deleted workspaces (their blobs go after the commit). */
export async function writeChanges(ctx: WriteContext, changes: ConfigChange[]): Promise<string[]> {
  for (const kind of ORDER) {
    for (const c of changes) if (c.kind === kind && c.action !== "delete") await write(ctx, c);
  }
  const storageKeys: string[] = [];
  for (const kind of [...ORDER].reverse()) {
    for (const c of changes) if (c.kind === kind && c.action === "delete") storageKeys.push(...(await remove(ctx, c)));
  }
  await restampSkills(ctx, changes);
  return storageKeys;
}

async function write(ctx: WriteContext, change: ConfigChange): Promise<void> {
  const { tx, orgId, desired, ids } = ctx;
  if (change.kind === "settings") {
    await tx.organization.updateMany({ where: { id: orgId }, data: { toolAuditDetail: desired.settings.toolAuditDetail as "metadata", auditRetentionDays: desired.settings.auditRetentionDays } });
  } else if (change.kind === "workspace") {
    const { servers: _s, skills: _k, ...w } = desired.workspaces.find((x) => x.slug === change.name)!;
    if (change.action === "create") ids.workspaces.set(w.slug, (await tx.workspace.create({ data: { orgId, ...w }, select: { id: true } })).id);
    else await tx.workspace.updateMany({ where: { id: ids.workspaces.get(w.slug)!, orgId }, data: w });
  } else if (change.kind === "connector") {
    await writeConnector(ctx, desired.connectors.find((x) => x.slug === change.name)!, change);
  } else if (change.kind === "role") {
    await writeRole(ctx, change);
  } else if (change.kind === "server") {
    await writeServer(ctx, change);
  } else {
    await writeSkill(ctx, change);
  }
}

async function writeConnector(ctx: WriteContext, c: CanonicalConnector, change: ConfigChange): Promise<void> {
  const { tx, orgId, ids } = ctx;
  const row = {
    name: c.name,
    instructions: c.instructions,
    config: c.type === "http" ? { baseUrl: c.baseUrl } : { url: c.url },
    ...(c.type === "mcp" ? { protocolEra: c.protocolEra!, transport: c.transport!, toolApproval: c.toolApproval } : {}),
    ...(ctx.headers.has(c.slug) ? { secretHeaders: sealHeaders(ctx.headers.get(c.slug)!) } : {}),
  };
  const changed = (prefix: string) => change.action === "create" || (change.fields ?? []).some((f) => f.path === prefix || f.path.startsWith(`${prefix}.`));
  let id = ids.connectors.get(c.slug);
  const auth = await authData(tx, { id: change.action === "create" ? undefined : id, orgId, type: c.type }, ctx.auth.get(c.slug));
  if (change.action === "create") {
    const secretRefs = sealAppliedReferences(referencesApplied(ctx, c, { headers: {} }));
    id = (await tx.connector.create({ data: { orgId, slug: c.slug, type: c.type, ...row, ...(auth as Pick<Prisma.ConnectorUncheckedCreateInput, "auth" | "authSecret" | "oauthClientState">), secretRefs }, select: { id: true } })).id;
    ids.connectors.set(c.slug, id);
  } else {
    // A URL on another origin: the connections' tokens stay with the old host (as a PATCH).
    const before = await tx.connector.findFirstOrThrow({ where: { id, orgId }, select: { config: true, secretRefs: true } });
    const key = c.type === "http" ? "baseUrl" : "url";
    const origin = await changeConnectorOrigin(tx, { id: id!, orgId }, publicConfig(c.type, before.config)[key], c.type === "http" ? c.baseUrl : c.url);
    const secretRefs = sealAppliedReferences(referencesApplied(ctx, c, openAppliedReferences(before.secretRefs, id!)));
    await tx.connector.updateMany({ where: { id, orgId }, data: { ...row, ...origin, ...auth, secretRefs } });
  }
  const connector = { id: id!, orgId };
  if (c.type === "http" && (changed("tools") || changed("toolOrder"))) await replaceTools(tx, connector, httpToolRows(orgId, c.tools as HttpToolInput[]));
  if (changed("resources")) await syncResources(tx, connector, c.resources);
  if (changed("graph")) {
    await tx.graphRelation.deleteMany({ where: { connectorId: connector.id, orgId } });
    await tx.graphEntity.deleteMany({ where: { connectorId: connector.id, orgId } });
    await tx.graphEntity.createMany({ data: c.graph.entities.map((e) => ({ orgId, connectorId: connector.id, ...e })) });
    await tx.graphRelation.createMany({ data: c.graph.relations.map((r) => ({ orgId, connectorId: connector.id, fromKey: r.from, toKey: r.to, kind: r.kind, description: r.description })) });
  }
}

/**
 * The references this apply writes, with the values they resolved to: the headers when they are
 * written (as a whole set), the client secret when the auth is; the rest as they were.
 */
function referencesApplied(ctx: WriteContext, c: CanonicalConnector, before: AppliedReferences): AppliedReferences {
  const headers = ctx.headers.get(c.slug);
  const auth = ctx.auth.get(c.slug);
  const reference = (c.auth as { clientSecret?: string }).clientSecret;
  const secret = auth && auth.type !== "headers" ? auth.clientSecret : undefined;
  // Written with a new secret: its reference; auth by headers: none; a stored secret kept: as it was.
  const clientSecret = reference && secret !== undefined ? { ref: reference, value: secret } : auth?.type === "headers" ? undefined : before.clientSecret;
  return { headers: headers ? appliedHeaders(c.headers, headers) : before.headers, ...(clientSecret ? { clientSecret } : {}) };
}

/** Stored resources by URI: kept rows are changed in place (their ids, in resource links, stay). */
async function syncResources(tx: Tx, connector: { id: string; orgId: string }, resources: CanonicalConnector["resources"]): Promise<void> {
  const { id: connectorId, orgId } = connector;
  await tx.storedResource.deleteMany({ where: { connectorId, connector: { orgId }, uri: { notIn: resources.map((r) => r.uri) } } });
  const existing = new Set((await tx.storedResource.findMany({ where: { connectorId, connector: { orgId } }, select: { uri: true } })).map((r) => r.uri));
  for (const r of resources) {
    const data = { name: r.name, description: r.description, mimeType: r.mimeType, fetchConfig: r.fetchConfig === null ? Prisma.DbNull : (r.fetchConfig as Prisma.InputJsonValue) };
    if (existing.has(r.uri)) await tx.storedResource.updateMany({ where: { connectorId, connector: { orgId }, uri: r.uri }, data });
    else await tx.storedResource.create({ data: { connectorId: connector.id, uri: r.uri, ...data }, select: { id: true } });
  }
}

async function writeRole(ctx: WriteContext, change: ConfigChange): Promise<void> {
  const { tx, orgId, ids } = ctx;
  const role = ctx.desired.roles.find((r) => r.name === change.name)!;
  const tools = role.tools.map((t) => ({ orgId, connectorId: ids.connectors.get(t.connector)!, toolName: t.tool }));
  const prompts = role.prompts.map((p) => ({ orgId, connectorId: ids.connectors.get(p.connector)!, promptName: p.prompt }));
  if (change.action === "create") {
    const created = await tx.mcpRole.create({ data: { orgId, name: role.name, tools: { create: tools }, prompts: { create: prompts } }, select: { id: true } });
    ids.roles.set(role.name, created.id);
    return;
  }
  const roleId = ids.roles.get(role.name)!;
  await tx.mcpRoleTool.deleteMany({ where: { roleId, orgId } });
  await tx.mcpRoleTool.createMany({ data: tools.map((t) => ({ ...t, roleId })) });
  await tx.mcpRolePrompt.deleteMany({ where: { roleId, orgId } });
  await tx.mcpRolePrompt.createMany({ data: prompts.map((p) => ({ ...p, roleId })) });
  await tx.mcpRole.updateMany({ where: { id: roleId, orgId }, data: { updatedAt: new Date() } });
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf("/");
  return [key.slice(0, at), key.slice(at + 1)];
}

async function writeServer(ctx: WriteContext, change: ConfigChange): Promise<void> {
  const { tx, orgId, ids } = ctx;
  const [ws, name] = splitKey(change.name);
  const server = ctx.desired.workspaces.find((w) => w.slug === ws)!.servers.find((s) => s.name === name)!;
  const workspaceId = ids.workspaces.get(ws)!;
  let id = ids.servers.get(change.name);
  if (change.action === "create") {
    id = (await tx.mcpServer.create({ data: { orgId, workspaceId, name, instructions: server.instructions }, select: { id: true } })).id;
    ids.servers.set(change.name, id);
  } else {
    await tx.mcpServer.updateMany({ where: { id, orgId }, data: { instructions: server.instructions } });
  }
  await replaceServerConnectors(tx, { id: id!, orgId }, server.connectors.map((slug) => ids.connectors.get(slug)!));
  await replaceToolOverrides(tx, { id: id!, orgId }, server.tools.map(({ connector, ...t }) => ({ ...t, connectorId: ids.connectors.get(connector)! }) as ToolOverrideItem));
}

async function writeSkill(ctx: WriteContext, change: ConfigChange): Promise<void> {
  const { tx, orgId, ids } = ctx;
  const [ws, name] = splitKey(change.name);
  const skill = ctx.desired.workspaces.find((w) => w.slug === ws)!.skills.find((s) => s.name === name)!;
  const data = { content: skill.content, applied: skill.applied, connectorId: skill.connector ? ids.connectors.get(skill.connector)! : null };
  if (change.action === "create") {
    const created = await tx.skill.create({ data: { orgId, workspaceId: ids.workspaces.get(ws)!, name, ...data }, select: { id: true } });
    ids.skills.set(change.name, created.id);
  } else {
    await tx.skill.updateMany({ where: { id: ids.skills.get(change.name)!, orgId }, data });
  }
}

/**
 * The servers' instructions show a workspace's skills by creation time: where a skill was added
 * or moved, the document's skills get creation times in the document's order.
 */
async function restampSkills(ctx: WriteContext, changes: ConfigChange[]): Promise<void> {
  const touched = new Set(changes.filter((c) => c.kind === "skill" && c.action !== "delete").map((c) => splitKey(c.name)[0]));
  const base = Date.now();
  for (const w of ctx.desired.workspaces.filter((x) => touched.has(x.slug))) {
    for (const [i, s] of w.skills.entries()) {
      await ctx.tx.skill.updateMany({ where: { id: ctx.ids.skills.get(`${w.slug}/${s.name}`)!, orgId: ctx.orgId }, data: { createdAt: new Date(base + i) } });
    }
  }
}

async function remove(ctx: WriteContext, change: ConfigChange): Promise<string[]> {
  const { tx, orgId, ids } = ctx;
  if (change.kind === "workspace") {
    // As DELETE /workspaces/{id}: the cascade's trigger queues the files' blobs; their keys let them go right after the commit.
    const workspaceId = ids.workspaces.get(change.name)!;
    const files = await tx.file.findMany({ where: { workspaceId, orgId }, select: { storageKey: true } });
    await tx.workspace.deleteMany({ where: { id: workspaceId, orgId } });
    return files.map((f) => f.storageKey);
  }
  if (change.kind === "connector") await tx.connector.deleteMany({ where: { id: ids.connectors.get(change.name)!, orgId } });
  else if (change.kind === "role") await tx.mcpRole.deleteMany({ where: { id: ids.roles.get(change.name)!, orgId } });
  else if (change.kind === "server") await tx.mcpServer.deleteMany({ where: { id: ids.servers.get(change.name)!, orgId } });
  else if (change.kind === "skill") await tx.skill.deleteMany({ where: { id: ids.skills.get(change.name)!, orgId } });
  return [];
}
