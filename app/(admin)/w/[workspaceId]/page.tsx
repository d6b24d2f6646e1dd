import { redirect } from "next/navigation";
import { requireWorkspace } from "@/app/(admin)/_lib/context";

/** A workspace opens on its MCP servers (admins) or on the member's own API keys. */
export default async function WorkspacePage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspace, isAdmin } = await requireWorkspace((await params).workspaceId);
  redirect(`/w/${workspace.id}/${isAdmin ? "servers" : "api-keys"}`);
}
