import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { AppError, NotFoundError } from "@/lib/errors";
import { workspacesJoinedBy } from "@/lib/tenancy/scopes";
import { findScopedWorkspace } from "@/lib/tenancy/find-scoped-workspace";

/**
 * Stand-ins until the files capability lands: the endpoints exist (and are documented), check
 * the caller and the id exactly as the real ones will — an outsider still gets 404 — and then
 * answer 501.
 */

const notImplemented = () => new AppError("not_implemented", "File storage arrives with the files capability.");

/** Files a caller can see: its own and those shared with the workspace, in workspaces it works in. */
function filesVisibleTo(caller: Caller): Prisma.FileWhereInput {
  if (caller.kind === "instance") return {};
  return { workspace: workspacesJoinedBy(caller), OR: [{ ownerId: caller.userId }, { visibility: "workspace" }] };
}

/** Upload and list: 404 for a workspace the caller does not work in, else 501. */
export async function workspaceFilesNotReady(caller: Caller, workspaceId: string): Promise<never> {
  await findScopedWorkspace(db(), workspaceId, workspacesJoinedBy(caller));
  throw notImplemented();
}

/** Read, change, delete, download: 404 for a file the caller cannot see, else 501. */
export async function fileNotReady(caller: Caller, fileId: string): Promise<never> {
  const file = await db().file.findFirst({ where: { id: fileId, AND: [filesVisibleTo(caller)] }, select: { id: true } });
  if (!file) throw new NotFoundError("file");
  throw notImplemented();
}
