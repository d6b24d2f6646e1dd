import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import type { ServerHead } from "@/lib/mcp/visibility/load-snapshot";

/**
 * Which tools of a server a caller may use, before looking at the tools themselves
 * (DESIGN.md "Who sees what"):
 * - the instance credential and org owners/admins: every assigned tool;
 * - a workspace member with an MCP role: the role's whitelist;
 * - a workspace member without a role: everything, unless the workspace uses tool
 *   whitelists, then nothing (fail closed);
 * - anyone else, or an API key of another workspace or pinned to another server: null —
 *   the server does not exist for them.
 */
export type CallerAccess = { kind: "all" } | { kind: "whitelist"; allowed: Set<string> };

export function whitelistKey(connectorId: string, toolName: string): string {
  return `${connectorId}\u0000${toolName}`;
}

/**
 * `head` must come from findServerHead(caller, …), whose query already keeps out servers of
 * another organization or workspace than the caller's API key and servers its key is not
 * pinned to; what is left to decide here is the caller's role.
 */
export async function loadCallerAccess(caller: Caller, head: ServerHead): Promise<CallerAccess | null> {
  if (caller.kind === "instance") return { kind: "all" };
  const [orgMember, workspaceMember] = await Promise.all([
    db().orgMember.findFirst({ where: { orgId: head.orgId, userId: caller.userId }, select: { role: true } }),
    db().workspaceMember.findFirst({
      where: { orgId: head.orgId, workspaceId: head.workspaceId, userId: caller.userId },
      select: {
        // The role must belong to the same org: re-checked in the query, not trusted from the row.
        mcpRole: { select: { tools: { where: { orgId: head.orgId }, select: { connectorId: true, toolName: true } } } },
        mcpRoleId: true,
      },
    }),
  ]);
  if (!orgMember) return null;
  if (orgMember.role === "owner" || orgMember.role === "admin") return { kind: "all" };
  if (!workspaceMember) return null;
  if (workspaceMember.mcpRoleId) {
    const tools = workspaceMember.mcpRole?.tools ?? [];
    return { kind: "whitelist", allowed: new Set(tools.map((t) => whitelistKey(t.connectorId, t.toolName))) };
  }
  return head.workspace.toolWhitelistsEnabled ? { kind: "whitelist", allowed: new Set() } : { kind: "all" };
}
