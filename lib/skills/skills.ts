import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { workspacesManagedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import type { CreateSkillBody, SkillListQuery, UpdateSkillBody } from "@/lib/skills/schemas";
import { lockForWrite } from "@/lib/db/lock-row";
import type { IfMatch } from "@/lib/api/if-match";
import { type BulkResult, runBulk } from "@/lib/api/bulk";

/**
 * Workspace skills: markdown added to the servers' instructions when applied, optionally scoped
 * to one connector. Admin objects: read and written by the managers of the workspace only (a
 * member would otherwise read skills of connectors its role hides).
 */

type Tx = Prisma.TransactionClient;

const skillSelect = {
  id: true,
  workspaceId: true,
  name: true,
  content: true,
  connectorId: true,
  applied: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.SkillSelect;
export type SkillView = Prisma.SkillGetPayload<{ select: typeof skillSelect }>;

const managedSkill = (caller: Caller, skillId: string): Prisma.SkillWhereInput => ({ id: skillId, workspace: workspacesManagedBy(caller) });

/** A skill may be scoped only to a connector of its own organization (checked in the query). */
async function assertConnectorInOrg(tx: Tx, orgId: string, connectorId: string | null | undefined): Promise<void> {
  if (!connectorId) return;
  const found = await tx.connector.findFirst({ where: { id: connectorId, orgId }, select: { id: true } });
  if (!found) throw new ValidationError([{ path: "connectorId", message: "The connector must exist in the workspace's organization." }]);
}

/** The managed skill locked for this write, checked against its If-Match. */
async function lockManagedSkill(tx: Tx, caller: Caller, skillId: string, ifMatch: IfMatch | undefined) {
  const skill = await findManagedSkill(tx, caller, skillId);
  await lockForWrite(tx, { table: "skills", id: skill.id, orgId: skill.orgId, what: "skill" }, ifMatch, () =>
    tx.skill.findFirst({ where: { id: skill.id, orgId: skill.orgId, workspace: workspacesManagedBy(caller) }, select: skillSelect }),
  );
  return skill;
}

async function findManagedSkill(tx: Tx, caller: Caller, skillId: string) {
  const skill = await tx.skill.findFirst({ where: managedSkill(caller, skillId), select: { id: true, orgId: true, workspaceId: true } });
  if (!skill) throw new NotFoundError("skill");
  return skill;
}

/** Adds a skill to a workspace (applied unless `applied: false`). */
export async function createSkill(caller: Caller, workspaceId: string, input: CreateSkillBody): Promise<SkillView> {
  assertCredentialMay(caller, "skills.manage");
  return db().$transaction(async (tx) => {
    const workspace = await findScopedWorkspace(tx, workspaceId, workspacesManagedBy(caller));
    await assertConnectorInOrg(tx, workspace.orgId, input.connectorId);
    const skill = await tx.skill.create({
      data: { ...input, connectorId: input.connectorId ?? null, orgId: workspace.orgId, workspaceId: workspace.id },
      select: skillSelect,
    });
    await configVersion.bump(tx, workspace.orgId);
    await recordAuditEvent(caller, {
      orgId: workspace.orgId,
      workspaceId: workspace.id,
      action: "skill.create",
      targetType: "skill",
      targetId: skill.id,
      data: { name: skill.name, connectorId: skill.connectorId, applied: skill.applied },
    }, tx);
    return skill;
  });
}

export async function listSkills(caller: Caller, workspaceId: string, query: ListArgs<SkillListQuery>): Promise<Page<SkillView>> {
  assertCredentialMay(caller, "skills.manage");
  await findScopedWorkspace(db(), workspaceId, workspacesManagedBy(caller));
  const where: Prisma.SkillWhereInput = { workspaceId, workspace: workspacesManagedBy(caller), ...searchIn(query.q, (m) => [{ name: m }]) };
  const orderBy = listOrder(query, [{ id: "asc" }]) as Prisma.SkillOrderByWithRelationInput[];
  return pageOf(query, (args) => db().skill.findMany({ where, orderBy, select: skillSelect, ...args }));
}

export async function getSkill(caller: Caller, skillId: string): Promise<SkillView> {
  assertCredentialMay(caller, "skills.manage");
  const skill = await db().skill.findFirst({ where: managedSkill(caller, skillId), select: skillSelect });
  if (!skill) throw new NotFoundError("skill");
  return skill;
}

/** Changes a skill's name, content, connector scope or whether it is applied. */
export async function updateSkill(caller: Caller, skillId: string, input: UpdateSkillBody, ifMatch?: IfMatch): Promise<SkillView> {
  assertCredentialMay(caller, "skills.manage");
  return db().$transaction(async (tx) => {
    const skill = await lockManagedSkill(tx, caller, skillId, ifMatch);
    await assertConnectorInOrg(tx, skill.orgId, input.connectorId);
    const updated = await tx.skill.update({ where: { id: skill.id, workspaceId: skill.workspaceId, workspace: workspacesManagedBy(caller) }, data: input, select: skillSelect });
    await configVersion.bump(tx, skill.orgId);
    await recordAuditEvent(caller, {
      orgId: skill.orgId,
      workspaceId: skill.workspaceId,
      action: "skill.update",
      targetType: "skill",
      targetId: skill.id,
      data: { fields: Object.keys(input) },
    }, tx);
    return updated;
  });
}

export async function deleteSkill(caller: Caller, skillId: string, ifMatch?: IfMatch): Promise<void> {
  assertCredentialMay(caller, "skills.manage");
  await db().$transaction(async (tx) => {
    const skill = await lockManagedSkill(tx, caller, skillId, ifMatch);
    await tx.skill.delete({ where: { id: skill.id, workspaceId: skill.workspaceId, workspace: workspacesManagedBy(caller) }, select: { id: true } });
    await configVersion.bump(tx, skill.orgId);
    await recordAuditEvent(caller, { orgId: skill.orgId, workspaceId: skill.workspaceId, action: "skill.delete", targetType: "skill", targetId: skill.id }, tx);
  });
}

/** Deletes several skills, each exactly as `deleteSkill` (and audited on its own). */
export function deleteSkills(caller: Caller, ids: string[]): Promise<BulkResult> {
  return runBulk(ids, (id) => deleteSkill(caller, id));
}
