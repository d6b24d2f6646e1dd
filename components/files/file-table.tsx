import Link from "next/link";
import { Lock, Users } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { FileActions } from "@/components/files/file-actions";
import type { FileView } from "@/components/files/files-api";
import { formatBytes, formatDate } from "@/components/files/format";

interface Props {
  files: FileView[];
  caption: string;
  viewer: { userId: string; isAdmin: boolean };
  /** The list's URL with another tag filter (tags link to it). */
  tagHref: (tag: string) => string;
}

/** The files of one list page: what each is, its tags, who sees it, its files:// URI, actions. */
export function FileTable({ files, caption, viewer, tagHref }: Props) {
  return (
    <Table>
      <caption className="sr-only">{caption}</caption>
      <THead>
        <tr>
          <TH>File</TH>
          <TH>Tags</TH>
          <TH>Access</TH>
          <TH>URI</TH>
          <TH className="text-right">Actions</TH>
        </tr>
      </THead>
      <TBody>
        {files.map((file) => {
          const mine = file.ownerId === viewer.userId;
          return (
            <tr key={file.id} data-file-id={file.id}>
              <TD className="max-w-72">
                <span className="block font-medium break-words">{file.name}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {file.mimeType} · {formatBytes(file.size)} · <time dateTime={file.createdAt}>{formatDate(file.createdAt)}</time>
                  {!mine && " · shared by a workspace member"}
                </span>
              </TD>
              <TD>
                {file.tags.length === 0 ? (
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">No tags</span>
                ) : (
                  <ul className="flex max-w-56 flex-wrap gap-1" aria-label={`Tags of ${file.name}`}>
                    {file.tags.map((tag) => (
                      <li key={tag}>
                        <Link href={tagHref(tag)} className={cn("rounded-full", focusRing)} title={`Show files tagged ${tag}`}>
                          <Badge className="hover:bg-zinc-200 dark:hover:bg-zinc-700">{tag}</Badge>
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </TD>
              <TD>
                {file.visibility === "private" ? (
                  <Badge>
                    <Lock aria-hidden className="size-3" />
                    Private
                  </Badge>
                ) : (
                  <Badge tone="info">
                    <Users aria-hidden className="size-3" />
                    Workspace
                  </Badge>
                )}
              </TD>
              <TD>
                <div className="flex items-center gap-2">
                  <code className="font-mono text-xs whitespace-nowrap">{file.uri}</code>
                  <CopyButton value={file.uri} aria-label={`Copy the files:// URI of ${file.name}`} />
                </div>
              </TD>
              <TD>
                <FileActions file={file} canEdit={mine} canDelete={mine || (viewer.isAdmin && file.visibility === "workspace")} />
              </TD>
            </tr>
          );
        })}
      </TBody>
    </Table>
  );
}
