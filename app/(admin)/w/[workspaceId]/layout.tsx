import type { ReactNode } from "react";
import { requireWorkspace } from "@/app/(admin)/_lib/context";

/** Pages of one workspace: for its members and the admins of its organization (else the 404 page). */
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: Promise<{ workspaceId: string }> }) {
  await requireWorkspace((await params).workspaceId);
  return children;
}
