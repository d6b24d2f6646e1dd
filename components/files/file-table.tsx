import Link from "next/link";
import { Lock, Users } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { type DataColumn, DataTable, type DataRow } from "@/components/lists/data-table";
import { FileActions } from "@/components/files/file-actions";
import type { FileView } from "@/components/files/files-api";
import { formatBytes, formatDate } from "@/components/files/format";

interface Props {
  files: FileView[];
  caption: string;
  /** `mayDeleteShared`: the permission table's `files.delete_shared` for the viewer's role. */
  viewer: { userId: string; mayDeleteShared: boolean };
  /** The list's URL with another tag filter (tags link to it). */
  tagHref: (tag: string) => string;
  nextCursor: string | null;
}

const COLUMNS: DataColumn[] = [
  { id: "file", header: "File", className: "max-w-72" },
  { id: "tags", header: "Tags" },
  { id: "access", header: "Access" },
  { id: "uri", header: "URI" },
  { id: "actions", header: "Actions", className: "text-right" },
];

function tagList(file: FileView, tagHref: (tag: string) => string) {
  if (file.tags.length === 0) return <span className="text-xs text-zinc-500 dark:text-zinc-400">No tags</span>;
  return (
    <ul className="flex max-w-56 flex-wrap gap-1" aria-label={`Tags of ${file.name}`}>
      {file.tags.map((tag) => (
        <li key={tag}>
          <Link href={tagHref(tag)} className={cn("rounded-full", focusRing)} title={`Show files tagged ${tag}`}>
            <Badge className="hover:bg-zinc-200 dark:hover:bg-zinc-700">{tag}</Badge>
          </Link>
        </li>
      ))}
    </ul>
  );
}

const access = (file: FileView) =>
  file.visibility === "private" ? (
    <Badge>
      <Lock aria-hidden className="size-3" />
      Private
    </Badge>
  ) : (
    <Badge tone="info">
      <Users aria-hidden className="size-3" />
      Workspace
    </Badge>
  );

/**
 * The files of one list page: what each is, its tags, who sees it, its files:// URI, actions.
 * The files the viewer may delete (their own; a manager's also the shared ones) can be selected
 * and deleted together through the JSON API's bulk delete, each file deleted and audited on its own.
 */
export function FileTable({ files, caption, viewer, tagHref, nextCursor }: Props) {
  const rows = files.map((file): DataRow => {
    const mine = file.ownerId === viewer.userId;
    const canDelete = mine || (viewer.mayDeleteShared && file.visibility === "workspace");
    return {
      id: file.id,
      label: file.name,
      selectable: canDelete,
      data: { "data-file-id": file.id },
      cells: {
        file: (
          <>
            <span className="block font-medium break-words">{file.name}</span>
            <span className="block text-xs text-zinc-600 dark:text-zinc-400">
              {file.mimeType} · {formatBytes(file.size)} · <time dateTime={file.createdAt}>{formatDate(file.createdAt)}</time>
              {!mine && " · shared by a workspace member"}
            </span>
          </>
        ),
        tags: tagList(file, tagHref),
        access: access(file),
        uri: (
          <div className="flex items-center gap-2">
            <code className="font-mono text-xs whitespace-nowrap">{file.uri}</code>
            <CopyButton value={file.uri} aria-label={`Copy the files:// URI of ${file.name}`} />
          </div>
        ),
        actions: <FileActions file={file} canEdit={mine} canDelete={canDelete} />,
      },
    };
  });
  return (
    <DataTable
      caption={caption}
      columns={COLUMNS}
      rows={rows}
      nextCursor={nextCursor}
      searchLabel="Search files"
      search={false}
      keep={["tag", "mimeType"]}
      bulk={{ verb: "Delete", noun: "file", endpoint: "/api/v1/files/bulk-delete", warning: "Tools can no longer read them by their files:// URI. This cannot be undone." }}
    />
  );
}
