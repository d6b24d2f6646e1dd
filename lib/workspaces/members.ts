import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { workspacesManagedBy } from "@/lib/tenancy/scopes";
import { assertCredentialMay } from "@/lib/permissions/guards";
import { assertMayReachMember } from "@/lib/orgs/member-guards";
import { revokeKeysAndDescendants } from "@/lib/api-keys/revoke-keys";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import * as configVersion from "@/lib/config-version/config-version";
import { type Page, pageOf } from "@/lib/api/pagination";
import { type ListArgs, listOrder, searchIn } from "@/lib/api/list-query";
import type { AddWorkspaceMemberBody, UpdateWorkspaceMemberBody, WorkspaceMemberListQuery } from "@/lib/workspaces/schemas";
import { type BulkResult, runBulk } from "@/lib/api/bulk";

type Tx = Prisma.TransactionClient;

const memberSelect = {
  id: true,
  orgId: true,
  workspaceId: true,
  userId: true,
  mcpRoleId: true,
  createdAt: true,
  user: { select: { email: true, name: true } },
} as const;

export interface WorkspaceMemberView {
  id: string;
  orgId: string;
  workspaceId: string;
  userId: string;
  email: string;
  name: string | null;
  mcpRoleId: string | null;
  createdAt: Date;
}

/** One 404 for "no such workspace", "not yours" and "no such member". */
const MEMBER = "workspace member";

function toView({ user, ...rest }: Prisma.WorkspaceMemberGetPayload<{ select: typeof memberSelect }>): WorkspaceMemberView {
  return { ...rest, email: user.email, name: user.name };
}

/** The MCP role must belong to the workspace's organization (checked in the query): else 422. */
async function assertRoleOfOrg(tx: Tx, orgId: string, mcpRoleId: string | null | undefined): Promise<void> {
  if (!mcpRoleId) return;
  const role = await tx.mcpRole.findFirst({ where: { id: mcpRoleId, orgId }, select: { id: true } });
  if (!role) throw new ValidationError([{ path: "mcpRoleId", message: "No MCP role of this organization has this id." }]);
}

/** Lists the members of a workspace the caller manages. */
export async function listWorkspaceMembers(caller: Caller, workspaceId: string, query: ListArgs<WorkspaceMemberListQuery>): Promise<Page<WorkspaceMemberView>> {
  assertCredentialMay(caller, "workspace.members.read");
  const workspace = await db().workspace.findFirst({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] }, select: { id: true } });
  if (!workspace) throw new NotFoundError("workspace");
  const where: Prisma.WorkspaceMemberWhereInput = {
    workspaceId,
    workspace: workspacesManagedBy(caller),
    ...searchIn(query.q, (m) => [{ user: { email: m } }, { user: { name: m } }]),
  };
  const orderBy = listOrder(query, [{ id: "asc" }], { email: "user.email" }) as Prisma.WorkspaceMemberOrderByWithRelationInput[];
  return pageOf(query, async (args) =>
    (await db().workspaceMember.findMany({
      where,
      orderBy,
      select: memberSelect,
      ...args,
    })).map(toView),
  );
}

/**
 * Adds a member of the workspace's organization to the workspace, optionally with an MCP role.
 * Someone outside the organization → 422 on `userId`; a role of another organization → 422 on
 * `mcpRoleId`; already a member → 409.
 */
export async function addWorkspaceMember(caller: Caller, workspaceId: string, input: AddWorkspaceMemberBody): Promise<WorkspaceMemberView> {
  assertCredentialMay(caller, "workspace.members.manage");
  return db().$transaction(async (tx) => {
    const workspace = await tx.workspace.findFirst({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] }, select: { orgId: true } });
    if (!workspace) throw new NotFoundError("workspace");
    const { orgId } = workspace;
    const orgMember = await tx.orgMember.findFirst({ where: { orgId, userId: input.userId }, select: { id: true } });
    if (!orgMember) throw new ValidationError([{ path: "userId", message: "This user is not a member of the workspace's organization." }]);
    await assertRoleOfOrg(tx, orgId, input.mcpRoleId);
    const existing = await tx.workspaceMember.findFirst({ where: { workspaceId, userId: input.userId }, select: { id: true } });
    if (existing) throw new ConflictError("That user is already a member of the workspace.");
    const row = await tx.workspaceMember.create({
      data: { orgId, workspaceId, userId: input.userId, mcpRoleId: input.mcpRoleId ?? null },
      select: memberSelect,
    });
    await configVersion.bump(tx, orgId);
    await recordAuditEvent(caller, { orgId, workspaceId, action: "workspace.member.add", targetType: "user", targetId: input.userId, data: { mcpRoleId: row.mcpRoleId } }, tx);
    return toView(row);
  });
}

async function findManagedMember(tx: Tx, caller: Caller, workspaceId: string, userId: string) {
  assertCredentialMay(caller, "workspace.members.manage");
  const member = await tx.workspaceMember.findFirst({
    where: { workspaceId, userId, workspace: workspacesManagedBy(caller) },
    select: { id: true, orgId: true, mcpRoleId: true },
  });
  if (!member) throw new NotFoundError(MEMBER);
  return member;
}

/** Gives a workspace member another MCP role, or none (`null`). */
export async function updateWorkspaceMember(caller: Caller, workspaceId: string, userId: string, input: UpdateWorkspaceMemberBody): Promise<WorkspaceMemberView> {
  return db().$transaction(async (tx) => {
    const member = await findManagedMember(tx, caller, workspaceId, userId);
    await assertRoleOfOrg(tx, member.orgId, input.mcpRoleId);
    const row = await tx.workspaceMember.update({ where: { id: member.id, workspaceId, workspace: workspacesManagedBy(caller) }, data: { mcpRoleId: input.mcpRoleId }, select: memberSelect });
    await configVersion.bump(tx, member.orgId);
    await recordAuditEvent(caller, { orgId: member.orgId, workspaceId, action: "workspace.member.update", targetType: "user", targetId: userId, data: { from: member.mcpRoleId, to: input.mcpRoleId } }, tx);
    return toView(row);
  });
}

/**
 * Removes a member from a workspace; the API keys they hold in it, and the keys those issued,
 * are revoked at once. An owner is removed by owners only (`owners.manage`, else 403).
 */
export async function removeWorkspaceMember(caller: Caller, workspaceId: string, userId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const member = await findManagedMember(tx, caller, workspaceId, userId);
    await assertMayReachMember(tx, caller, member.orgId, userId, "Only an owner of the organization can remove an owner from a workspace.");
    await tx.workspaceMember.delete({ where: { id: member.id, workspaceId, workspace: workspacesManagedBy(caller) } });
    const held = await tx.apiKey.findMany({ where: { orgId: member.orgId, workspaceId, userId, revokedAt: null }, select: { id: true } });
    const revokedApiKeys = await revokeKeysAndDescendants(tx, member.orgId, held.map((k) => k.id));
    await configVersion.bump(tx, member.orgId);
    await recordAuditEvent(caller, { orgId: member.orgId, workspaceId, action: "workspace.member.remove", targetType: "user", targetId: userId, data: { revokedApiKeys } }, tx);
  });
}

/** Gives several workspace members one MCP role (null: none), each exactly as `updateWorkspaceMember`. */
export async function setWorkspaceMembersRole(caller: Caller, workspaceId: string, userIds: string[], mcpRoleId: string | null): Promise<BulkResult> {
  assertCredentialMay(caller, "workspace.members.manage");
  // A workspace the caller does not manage is not found, as for one member (not a 200 of refusals).
  const workspace = await db().workspace.findFirst({ where: { id: workspaceId, AND: [workspacesManagedBy(caller)] }, select: { id: true } });
  if (!workspace) throw new NotFoundError("workspace");
  return runBulk(userIds, (userId) => updateWorkspaceMember(caller, workspaceId, userId, { mcpRoleId }));
}
