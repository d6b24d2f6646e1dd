import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/auth/caller";
import { callerUserId, workspacesJoinedBy } from "@/lib/tenancy/scopes";

/** The columns every answer about a file is built from. */
export const fileSelect = {
  id: true,
  orgId: true,
  workspaceId: true,
  ownerId: true,
  name: true,
  mimeType: true,
  size: true,
  sha256: true,
  tags: true,
  visibility: true,
  storageKey: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.FileSelect;
export type FileRow = Prisma.FileGetPayload<{ select: typeof fileSelect }>;

/** A file as the JSON API shows it (lib/files/schemas.ts StoredFile). */
export interface FileView {
  id: string;
  uri: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  tags: string[];
  visibility: "private" | "workspace";
  ownerId: string;
  createdAt: string;
  updatedAt: string;
}

/** `files://<id>`: how a file is named to MCP servers (seed 000). */
export const fileUri = (id: string) => `files://${id}`;

export function toFileView(row: FileRow): FileView {
  return {
    id: row.id,
    uri: fileUri(row.id),
    name: row.name,
    mimeType: row.mimeType,
    size: row.size,
    sha256: row.sha256,
    tags: row.tags,
    visibility: row.visibility,
    ownerId: row.ownerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Files a user may see: their own private files and the files shared with the workspace, in
 * workspaces they work in. Private means private to the owner — org admins do not see other
 * users' private files either. Without a user (the instance credential) only shared files.
 */
export function filesVisibleToUser(userId: string | null): Prisma.FileWhereInput {
  if (!userId) return { visibility: "workspace" };
  return {
    workspace: workspacesJoinedBy({ kind: "user", userId, apiKey: null }),
    OR: [{ ownerId: userId }, { visibility: "workspace" }],
  };
}

/** The same rule for an API caller (an API key also stays inside its own workspace). */
export function filesVisibleTo(caller: Caller): Prisma.FileWhereInput {
  return { AND: [{ workspace: workspacesJoinedBy(caller) }, filesVisibleToUser(callerUserId(caller))] };
}

/** Tags as stored: trimmed, without duplicates, in the order given. */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}
