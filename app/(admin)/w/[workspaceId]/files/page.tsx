import type { Metadata } from "next";
import { FolderOpen, SearchX } from "lucide-react";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { FileFilters } from "@/components/files/file-filters";
import { FileTable } from "@/components/files/file-table";
import { FileWritesProvider } from "@/components/files/file-writes";
import { deleteFileAction, updateFileAction } from "@/app/(admin)/w/[workspaceId]/files/actions";
import { FileUploader } from "@/components/files/file-uploader";
import { WorkspacePicker } from "@/components/files/workspace-picker";
import { cursorParam, loadViewer, requireWorkspace } from "@/app/(admin)/_lib/context";
import { listFiles } from "@/lib/files/files";
import { roleAllows } from "@/lib/permissions/table";
import { FileQuery } from "@/lib/files/schemas";
import { readListParams } from "@/app/(admin)/_lib/list-params";
import { uploadLimits } from "@/lib/files/limits";

export const metadata: Metadata = { title: "Files" };

type Props = { params: Promise<{ workspaceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

function textParam(value: string | string[] | undefined, max: number): string | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  return v && v.length <= max ? v : undefined;
}

/**
 * The files page of a workspace, for every member: upload (drag and drop or picker, progress,
 * cancel, tags, visibility) through the JSON API from the browser, and the list of the files
 * they can see (their own and the shared ones), filtered by tag and MIME type, cursor-paged.
 */
export default async function WorkspaceFilesPage({ params, searchParams }: Props) {
  const { org, workspace, caller, userId } = await requireWorkspace((await params).workspaceId);
  const { orgs } = await loadViewer();
  const query = await searchParams;
  const tag = textParam(query.tag, 100);
  const mimeType = textParam(query.mimeType, 255);
  const cursor = cursorParam(query.cursor);
  const list = readListParams(FileQuery, query, 25);
  const page = await listFiles(caller, workspace.id, { ...list, tag, mimeType, cursor });
  const basePath = `/w/${workspace.id}/files`;
  const tagHref = (t: string) => `${basePath}?${new URLSearchParams({ tag: t, ...(mimeType ? { mimeType } : {}) })}`;
  const filtered = Boolean(tag || mimeType || list.q);

  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Files"
        description={
          <>
            Tools on this workspace&apos;s MCP servers can read these files by their <code className="font-mono">files://</code> URI. Private files are
            yours alone; workspace files are shared with everyone in {workspace.name}.
          </>
        }
        actions={<WorkspacePicker orgs={orgs} current={workspace.id} />}
      />
      <FileUploader key={workspace.id} workspaceId={workspace.id} workspaceName={workspace.name} maxUploadBytes={uploadLimits().maxUploadBytes} />
      <section aria-labelledby="files-list-title" className="grid gap-4">
        <h2 id="files-list-title" className="text-lg font-semibold">
          Files in {workspace.name}
        </h2>
        <FileFilters action={basePath} q={list.q} sort={list.sort} order={list.order} tag={tag} mimeType={mimeType} seenTypes={[...new Set(page.items.map((f) => f.mimeType))]} />
        {page.items.length > 0 ? (
          <FileWritesProvider writes={{ updateFile: updateFileAction, deleteFile: deleteFileAction }}>
            <FileTable
              files={page.items}
              caption={filtered ? `Files in ${workspace.name} matching the filters` : `Files in ${workspace.name}`}
              viewer={{ userId, mayDeleteShared: roleAllows(org.role, "files.delete_shared") }}
              tagHref={tagHref}
              nextCursor={page.nextCursor}
            />
          </FileWritesProvider>
        ) : filtered || cursor ? (
          <EmptyState icon={SearchX} title="No files match these filters">
            Tags and types must match exactly (for example <code className="font-mono">text/csv</code>).{" "}
            <Link href={basePath} className="underline">
              Clear the filters
            </Link>{" "}
            to see every file.
          </EmptyState>
        ) : (
          <EmptyState icon={FolderOpen} title="No files here yet">
            Drop files onto the upload area above, or press it to choose files. Each file gets a <code className="font-mono">files://</code> URI
            you can copy and hand to a tool; keep a file private or share it with the workspace.
          </EmptyState>
        )}
      </section>
    </div>
  );
}
