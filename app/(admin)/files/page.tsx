import type { Metadata } from "next";
import { FolderOpen } from "lucide-react";
import { redirect } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { currentPlace, loadViewer } from "@/app/(admin)/_lib/context";

export const metadata: Metadata = { title: "Files" };

/**
 * /files (the side navigation's short link, and the files page's workspace picker with
 * ?workspace=<id>): opens the files of that workspace, else of the workspace used last.
 */
export default async function FilesShortLinkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { orgs } = await loadViewer();
  const wanted = (await searchParams).workspace;
  const id = Array.isArray(wanted) ? wanted[0] : wanted;
  if (id && orgs.some((org) => org.workspaces.some((w) => w.id === id))) redirect(`/w/${encodeURIComponent(id)}/files`);
  const { workspace } = await currentPlace();
  if (workspace) redirect(`/w/${encodeURIComponent(workspace.id)}/files`);
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader title="Files" />
      <EmptyState icon={FolderOpen} title="You are not in a workspace yet">
        Files belong to a workspace. Ask an owner or admin of your organization to add you to one, then come back here to upload files.
      </EmptyState>
    </div>
  );
}
