import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { ConflictError, type FieldError, NotFoundError, ValidationError } from "@/lib/errors";
import { orgsManagedBy } from "@/lib/tenancy/scopes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import type { CreateRoleBody, RoleListQuery, RolePrompt, RoleTool, UpdateRoleBody } from "@/lib/roles/schemas";
import { lockRow } from "@/lib/db/lock-row";
import { assertIfMatch, type IfMatch } from "@/lib/api/if-match";
import { queueRowWrite } from "@/lib/db/queue-row-writes";

type Tx = Prisma.TransactionClient;

const roleSelect = {
  id: true,
  orgId: true,
  name: true,
  createdAt: true,
  updatedAt: true,
  tools: { select: { connectorId: true, toolName: true }, orderBy: [{ connectorId: "asc" }, { toolName: "asc" }] },
  prompts: { select: { connectorId: true, promptName: true }, orderBy: [{ connectorId: "asc" }, { promptName: "asc" }] },
} as const satisfies Prisma.McpRoleSelect;

export interface RoleView {
  id: string;
  orgId: string;
  name: string;
  tools: RoleTool[];
  prompts: RolePrompt[];
  createdAt: Date;
  updatedAt: Date;
}

function toView({ tools, prompts, ...rest }: Prisma.McpRoleGetPayload<{ select: typeof roleSelect }>): RoleView {
  return {
    ...rest,
    tools: tools.map((t) => ({ connectorId: t.connectorId, tool: t.toolName })),
    prompts: prompts.map((p) => ({ connectorId: p.connectorId, prompt: p.promptName })),
  };
}

/**
 * Every connector must belong to the role's organization (checked in the query), else 422 on
 * `tools.N.connectorId`. Tools are kept by name and need not exist yet (an upstream reload may
 * bring them back). Returns the list without duplicates.
 */
async function checkEntries<T extends { connectorId: string }>(tx: Tx, orgId: string, field: "tools" | "prompts", entries: T[], name: (e: T) => string): Promise<T[]> {
  const ids = [...new Set(entries.map((t) => t.connectorId))];
  const found = await tx.connector.findMany({ where: { id: { in: ids }, orgId }, select: { id: true } });
  const known = new Set(found.map((c) => c.id));
  const errors: FieldError[] = entries.flatMap((t, i) =>
    known.has(t.connectorId) ? [] : [{ path: `${field}.${i}.connectorId`, message: "No connector of this organization has this id." }],
  );
  if (errors.length) throw new ValidationError(errors);
  const unique = new Map(entries.map((t) => [`${t.connectorId}\u0000${name(t)}`, t]));
  return [...unique.values()];
}

const checkTools = (tx: Tx, orgId: string, tools: RoleTool[]) => checkEntries(tx, orgId, "tools", tools, (t) => t.tool);
/** Prompts, like tools, are kept by name (`prompts.N.connectorId` must be of the organization). */
const checkPrompts = (tx: Tx, orgId: string, prompts: RolePrompt[]) => checkEntries(tx, orgId, "prompts", prompts, (p) => p.prompt);

async function assertNameFree(tx: Tx, orgId: string, name: string): Promise<void> {
  const taken = await tx.mcpRole.findFirst({ where: { orgId, name }, select: { id: true } });
  if (taken) throw new ConflictError(`The organization already has an MCP role named "${name}".`);
}

const toolRows = (orgId: string, tools: RoleTool[]) => tools.map((t) => ({ orgId, connectorId: t.connectorId, toolName: t.tool }));
const promptRows = (orgId: string, prompts: RolePrompt[]) => prompts.map((p) => ({ orgId, connectorId: p.connectorId, promptName: p.prompt }));

/** Creates an MCP role (a whitelist of connector tools) in an organization the caller manages. */
export async function createRole(caller: Caller, orgId: string, input: CreateRoleBody): Promise<RoleView> {
  assertCredentialMay(caller, "roles.manage");
  return db().$transaction(async (tx) => {
    const org = await tx.organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
    if (!org) throw new NotFoundError("organization");
    await assertNameFree(tx, orgId, input.name);
    const tools = await checkTools(tx, orgId, input.tools);
    const prompts = await checkPrompts(tx, orgId, input.prompts ?? []);
    const role = await tx.mcpRole.create({
      data: { orgId, name: input.name, tools: { create: toolRows(orgId, tools) }, prompts: { create: promptRows(orgId, prompts) } },
      select: roleSelect,
    });
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(caller, { orgId, action: "role.create", targetType: "mcp_role", targetId: role.id, data: { name: role.name, tools: tools.length, prompts: prompts.length } }, tx);
    return toView(role);
  });
}

/** Lists the MCP roles of an organization the caller manages. */
export async function listRoles(caller: Caller, orgId: string, query: ListArgs<RoleListQuery>): Promise<Page<RoleView>> {
  assertCredentialMay(caller, "roles.manage");
  const org = await db().organization.findFirst({ where: { id: orgId, AND: [orgsManagedBy(caller)] }, select: { id: true } });
  if (!org) throw new NotFoundError("organization");
  const where: Prisma.McpRoleWhereInput = { orgId, org: orgsManagedBy(caller), ...searchIn(query.q, (m) => [{ name: m }]) };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.McpRoleOrderByWithRelationInput[];
  return pageOf(query, async (args) => (await db().mcpRole.findMany({ where, orderBy, select: roleSelect, ...args })).map(toView));
}

/** An MCP role of an organization the caller manages (and, when given, of organization `orgId`). */
export async function getRole(caller: Caller, roleId: string, orgId?: string): Promise<RoleView> {
  assertCredentialMay(caller, "roles.manage");
  const role = await db().mcpRole.findFirst({ where: { id: roleId, org: orgsManagedBy(caller), ...(orgId ? { orgId } : {}) }, select: roleSelect });
  if (!role) throw new NotFoundError("MCP role");
  return toView(role);
}

/**
 * The role as it is now, read under its row lock: concurrent writes of the same role wait here
 * for each other, so a tool-set replacement never interleaves with another (which would leave
 * the union of both sets), and `If-Match` is compared with what this write is about to change.
 */
async function lockManagedRole(tx: Tx, caller: Caller, roleId: string, ifMatch: IfMatch | undefined): Promise<RoleView> {
  const found = await tx.mcpRole.findFirst({ where: { id: roleId, org: orgsManagedBy(caller) }, select: { orgId: true } });
  if (!found || !(await lockRow(tx, "mcp_roles", roleId, found.orgId))) throw new NotFoundError("MCP role");
  const current = await tx.mcpRole.findFirst({ where: { id: roleId, orgId: found.orgId, org: orgsManagedBy(caller) }, select: roleSelect });
  if (!current) throw new NotFoundError("MCP role");
  const view = toView(current);
  assertIfMatch(ifMatch, view);
  return view;
}

/** Renames a role and/or replaces its whole tool list (when `tools` is given) and prompt list (when `prompts` is). */
export async function updateRole(caller: Caller, roleId: string, input: UpdateRoleBody, ifMatch?: IfMatch): Promise<RoleView> {
  assertCredentialMay(caller, "roles.manage");
  return queueRowWrite("mcp_roles", roleId, () =>
    db().$transaction(async (tx) => {
      const current = await lockManagedRole(tx, caller, roleId, ifMatch);
      const { orgId } = current;
      if (input.name && input.name !== current.name) await assertNameFree(tx, orgId, input.name);
      const tools = input.tools ? await checkTools(tx, orgId, input.tools) : undefined;
      if (tools) {
        await tx.mcpRoleTool.deleteMany({ where: { roleId, orgId } });
        await tx.mcpRoleTool.createMany({ data: toolRows(orgId, tools).map((row) => ({ ...row, roleId })) });
      }
      const prompts = input.prompts ? await checkPrompts(tx, orgId, input.prompts) : undefined;
      if (prompts) {
        await tx.mcpRolePrompt.deleteMany({ where: { roleId, orgId } });
        await tx.mcpRolePrompt.createMany({ data: promptRows(orgId, prompts).map((row) => ({ ...row, roleId })) });
      }
      const role = await tx.mcpRole.update({ where: { id: roleId, orgId, org: orgsManagedBy(caller) }, data: { name: input.name ?? current.name, updatedAt: new Date() }, select: roleSelect });
      await configVersion.bump(tx, orgId);
      await recordAuditEvent(caller, { orgId, action: "role.update", targetType: "mcp_role", targetId: roleId, data: { name: role.name, ...(tools ? { tools: tools.length } : {}), ...(prompts ? { prompts: prompts.length } : {}) } }, tx);
      return toView(role);
    }),
  );
}

/** Deletes an MCP role; workspace members who had it keep their membership, without a role. */
export async function deleteRole(caller: Caller, roleId: string, ifMatch?: IfMatch): Promise<void> {
  assertCredentialMay(caller, "roles.manage");
  await queueRowWrite("mcp_roles", roleId, () =>
    db().$transaction(async (tx) => {
      const current = await lockManagedRole(tx, caller, roleId, ifMatch);
      await tx.mcpRole.deleteMany({ where: { id: roleId, org: orgsManagedBy(caller) } });
      await configVersion.bump(tx, current.orgId);
      await recordAuditEvent(caller, { orgId: current.orgId, action: "role.delete", targetType: "mcp_role", targetId: roleId, data: { name: current.name } }, tx);
    }),
  );
}
