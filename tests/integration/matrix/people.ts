import { db } from "@/lib/db/client";
import { orgMemberEndpoints as m } from "@/lib/orgs/member-endpoints";
import { workspaceEndpoints as w } from "@/lib/workspaces/endpoints";
import { roleEndpoints as r } from "@/lib/roles/endpoints";
import type { Tenant } from "@/tests/helpers/factories";
import { createUser, makeConnector, makeMember, makeRole, uniqueSuffix } from "@/tests/helpers/factories";
import type { MatrixCase, MatrixTarget } from "@/tests/integration/matrix/types";

/** Cross-tenant cases for organization members, workspaces (and their members) and MCP roles. */

const MISSING = "id_missing_000";

const orgPeople = (t: Tenant) => async () => ({
  orgMembers: await db().orgMember.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } }),
  workspaceMembers: await db().workspaceMember.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } }),
  apiKeys: await db().apiKey.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" }, select: { id: true, revokedAt: true } }),
});

const workspaces = (t: Tenant) => () => db().workspace.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" } });

const roles = (t: Tenant) => () =>
  db().mcpRole.findMany({ where: { orgId: t.org.id }, orderBy: { id: "asc" }, include: { tools: { orderBy: { id: "asc" } } } });

const connectorOf = async (t: Tenant): Promise<string> => (await makeConnector(t)).id;

async function roleOf(t: Tenant): Promise<string> {
  return (await makeRole(t, { tools: [[await connectorOf(t), "get_customer"]] })).id;
}

/** A case on `/orgs/{orgId}/…`: the missing path names an organization that never existed. */
const onOrg = (suffix: string, body?: (t: Tenant) => Promise<unknown>) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}${suffix}`,
  missingPath: `/api/v1/orgs/${MISSING}${suffix}`,
  body: body ? await body(t) : undefined,
  snapshot: suffix.startsWith("/roles") ? roles(t) : suffix.startsWith("/workspaces") ? workspaces(t) : orgPeople(t),
});

const orgMemberTarget = (body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/orgs/${t.org.id}/members/${t.member.user.id}`,
  missingPath: `/api/v1/orgs/${t.org.id}/members/${MISSING}`,
  body,
  snapshot: orgPeople(t),
});

const workspaceTarget = (suffix = "", body?: (t: Tenant) => Promise<unknown>) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/workspaces/${t.workspace.id}${suffix}`,
  missingPath: `/api/v1/workspaces/${MISSING}${suffix}`,
  body: body ? await body(t) : undefined,
  snapshot: async () => ({ workspaces: await workspaces(t)(), people: await orgPeople(t)() }),
});

const workspaceMemberTarget = (body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/workspaces/${t.workspace.id}/members/${t.member.user.id}`,
  missingPath: `/api/v1/workspaces/${t.workspace.id}/members/${MISSING}`,
  body,
  snapshot: orgPeople(t),
});

const roleTarget = (body?: unknown) => async (t: Tenant): Promise<MatrixTarget> => ({
  path: `/api/v1/roles/${await roleOf(t)}`,
  missingPath: `/api/v1/roles/${MISSING}`,
  body,
  snapshot: roles(t),
});

/** A user who belongs to the organization but not yet to its workspace. */
async function orgOnlyUser(t: Tenant): Promise<string> {
  const user = await makeMember({ orgId: t.org.id }, { role: "member", label: "org-only", workspace: false });
  return user.id;
}

export const peopleCases: MatrixCase[] = [
  { endpoint: m.listOrgMembers, setup: onOrg("/members"), outsiders: ["otherOrg", "member"] },
  { endpoint: m.addOrgMember, setup: onOrg("/members", async () => ({ userId: (await createUser("joiner")).id, role: "member" })), outsiders: ["otherOrg", "member"] },
  { endpoint: m.updateOrgMember, setup: orgMemberTarget({ role: "admin" }), outsiders: ["otherOrg", "member"] },
  { endpoint: m.removeOrgMember, setup: orgMemberTarget(), outsiders: ["otherOrg", "member"] },

  { endpoint: w.listWorkspaces, setup: onOrg("/workspaces"), outsiders: ["otherOrg"] },
  { endpoint: w.createWorkspace, setup: onOrg("/workspaces", async () => ({ name: "New", slug: `new-${uniqueSuffix()}` })), outsiders: ["otherOrg", "member"] },
  { endpoint: w.getWorkspace, setup: workspaceTarget(), outsiders: ["otherOrg", "otherWorkspace"] },
  { endpoint: w.updateWorkspace, setup: workspaceTarget("", async () => ({ name: "Renamed", toolWhitelistsEnabled: true })), outsiders: ["otherOrg", "otherWorkspace", "member"] },
  { endpoint: w.deleteWorkspace, setup: workspaceTarget(), outsiders: ["otherOrg", "otherWorkspace", "member"] },
  { endpoint: w.listWorkspaceMembers, setup: workspaceTarget("/members"), outsiders: ["otherOrg", "otherWorkspace", "member"] },
  { endpoint: w.addWorkspaceMember, setup: workspaceTarget("/members", async (t) => ({ userId: await orgOnlyUser(t) })), outsiders: ["otherOrg", "otherWorkspace", "member"] },
  { endpoint: w.updateWorkspaceMember, setup: workspaceMemberTarget({ mcpRoleId: null }), outsiders: ["otherOrg", "otherWorkspace", "member"] },
  { endpoint: w.removeWorkspaceMember, setup: workspaceMemberTarget(), outsiders: ["otherOrg", "otherWorkspace", "member"] },

  { endpoint: r.listRoles, setup: onOrg("/roles"), outsiders: ["otherOrg", "member"] },
  { endpoint: r.createRole, setup: onOrg("/roles", async (t) => ({ name: "Support", tools: [{ connectorId: await connectorOf(t), tool: "get_customer" }] })), outsiders: ["otherOrg", "member"] },
  { endpoint: r.getRole, setup: roleTarget(), outsiders: ["otherOrg", "member"] },
  { endpoint: r.updateRole, setup: roleTarget({ name: "Renamed", tools: [] }), outsiders: ["otherOrg", "member"] },
  { endpoint: r.deleteRole, setup: roleTarget(), outsiders: ["otherOrg", "member"] },
];
