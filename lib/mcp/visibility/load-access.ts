import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { permits } from "@/lib/permissions/guards";
import type { ServerHead } from "@/lib/mcp/visibility/load-snapshot";

/**
 * Which tools and prompts of a server a caller may use, before looking at the tools themselves
 * (DESIGN.md "Who sees what"):
 * - the instance credential and org owners/admins: every assigned tool;
 * - a workspace member with an MCP role: the role's whitelists (tools, prompts);
 * - a workspace member without a role: everything, unless the workspace uses tool
 *   whitelists, then nothing (fail closed);
 * - anyone else, or an API key of another workspace or pinned to another server: null —
 *   the server does not exist for them.
 */
export type CallerAccess = { kind: "all" } | { kind: "whitelist"; allowed: Set<string>; prompts: Set<string> };

/**
 * The class a caller's access falls in. Callers of one class see exactly the same surface of
 * a server, so what a server publishes is computed once per class and configuration version
 * (lib/mcp/visibility/resolve-view.ts) and shared by all of them.
 */
export type AccessClass = { key: "all" } | { key: "none" } | { key: `role:${string}`; roleId: string };

export function whitelistKey(connectorId: string, toolName: string): string {
  return `${connectorId}\u0000${toolName}`;
}

/**
 * `head` must come from findServerHead(caller, …), whose query already keeps out servers of
 * another organization or workspace than the caller's API key and servers its key is not
 * pinned to; what is left to decide here is the caller's role. Two small queries: the role's
 * whitelist itself is loaded by loadAccess, once per role and version.
 */
export async function loadAccessClass(caller: Caller, head: Pick<ServerHead, "orgId" | "workspaceId" | "workspace">): Promise<AccessClass | null> {
  if (caller.kind === "instance") return { key: "all" };
  const [orgMember, workspaceMember] = await Promise.all([
    db().orgMember.findFirst({ where: { orgId: head.orgId, userId: caller.userId }, select: { role: true } }),
    db().workspaceMember.findFirst({
      where: { orgId: head.orgId, workspaceId: head.workspaceId, userId: caller.userId },
      select: { mcpRoleId: true },
    }),
  ]);
  if (!orgMember) return null;
  // The permission table decides (owners and admins; a key at most with its maxRole).
  if (permits(caller, orgMember.role, "mcp.all_tools")) return { key: "all" };
  if (!workspaceMember) return null;
  if (workspaceMember.mcpRoleId) return { key: `role:${workspaceMember.mcpRoleId}`, roleId: workspaceMember.mcpRoleId };
  return head.workspace.toolWhitelistsEnabled ? { key: "none" } : { key: "all" };
}

/** What a class of callers may use in `orgId`: a role's whitelist is read from the database. */
export async function loadAccess(access: AccessClass, orgId: string): Promise<CallerAccess> {
  if (access.key === "all") return { kind: "all" };
  if (access.key === "none") return { kind: "whitelist", allowed: new Set(), prompts: new Set() };
  // The role must belong to the same org: checked in the query, not trusted from the member row.
  const roleId = (access as { roleId: string }).roleId;
  const [tools, prompts] = await Promise.all([
    db().mcpRoleTool.findMany({ where: { orgId, roleId }, select: { connectorId: true, toolName: true } }),
    db().mcpRolePrompt.findMany({ where: { orgId, roleId }, select: { connectorId: true, promptName: true } }),
  ]);
  return {
    kind: "whitelist",
    allowed: new Set(tools.map((t) => whitelistKey(t.connectorId, t.toolName))),
    prompts: new Set(prompts.map((p) => whitelistKey(p.connectorId, p.promptName))),
  };
}
