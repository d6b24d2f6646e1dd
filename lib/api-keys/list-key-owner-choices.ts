import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { listWorkspaceMembers, type WorkspaceMemberView } from "@/lib/workspaces/members";

/** The most members the console's "Acts as" choice lists. */
const MAX_CHOICES = 200;

/**
 * The workspace's members (`members`, for naming keys' users) and those among them a manager may
 * issue an API key for (`choices`), by the rule createApiKey applies (checkKeyOwner): "only an
 * owner (or the instance credential) issues one in an owner's name", so an admin is not offered
 * the owners — choosing one could only end in a 403.
 */
export async function listKeyOwnerChoices(caller: Caller, workspaceId: string): Promise<{ members: WorkspaceMemberView[]; choices: WorkspaceMemberView[] }> {
  const { items: members } = await listWorkspaceMembers(caller, workspaceId, { limit: MAX_CHOICES });
  if (caller.kind === "instance" || members.length === 0) return { members, choices: members };
  const orgId = members[0].orgId;
  const owners = await db().orgMember.findMany({ where: { orgId, role: "owner", userId: { in: [caller.userId, ...members.map((m) => m.userId)] } }, select: { userId: true } });
  const ownerIds = new Set(owners.map((o) => o.userId));
  return { members, choices: ownerIds.has(caller.userId) ? members : members.filter((m) => !ownerIds.has(m.userId)) };
}
