import type { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";

type WorkspaceReader = Pick<Prisma.TransactionClient, "workspace">;

/**
 * The workspace `workspaceId` if `scope` (workspacesManagedBy / workspacesJoinedBy) lets the
 * caller reach it, else "not found" — the same answer as for an id that never existed.
 * Pass the transaction client when a write follows.
 */
export async function findScopedWorkspace(
  client: WorkspaceReader,
  workspaceId: string,
  scope: Prisma.WorkspaceWhereInput,
): Promise<{ id: string; orgId: string }> {
  const workspace = await client.workspace.findFirst({ where: { id: workspaceId, AND: [scope] }, select: { id: true, orgId: true } });
  if (!workspace) throw new NotFoundError("workspace");
  return workspace;
}
