import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { permits, roleIn } from "@/lib/permissions/guards";
import { listWorkspaceMembers, type WorkspaceMemberView } from "@/lib/workspaces/members";

/** The most members the console's "Acts as" choice lists. */
const MAX_CHOICES = 200;

/**
 * The workspace's members (`members`, for naming keys' users), those among them a manager may
 * issue an API key for (`choices`), and those whose keys it may not revoke (`unreachable`), by
 * the rule createApiKey and revokeApiKey apply: an owner is reached only with the permission
 * table's `owners.manage`, so an admin is not offered the owners — choosing one, or revoking an
 * owner's key, could only end in a 403.
 */
export async function listKeyOwnerChoices(caller: Caller, workspaceId: string): Promise<{ members: WorkspaceMemberView[]; choices: WorkspaceMemberView[]; unreachable: Set<string> }> {
  const { items: members } = await listWorkspaceMembers(caller, workspaceId, { limit: MAX_CHOICES });
  if (caller.kind === "instance" || members.length === 0) return { members, choices: members, unreachable: new Set() };
  const orgId = members[0].orgId;
  if (permits(caller, await roleIn(db(), caller, orgId), "owners.manage")) return { members, choices: members, unreachable: new Set() };
  const owners = await db().orgMember.findMany({ where: { orgId, role: "owner", userId: { in: members.map((m) => m.userId) } }, select: { userId: true } });
  const unreachable = new Set(owners.map((o) => o.userId).filter((id) => id !== caller.userId));
  return { members, choices: members.filter((m) => !unreachable.has(m.userId)), unreachable };
}
