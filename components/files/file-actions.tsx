"use client";

import { Download, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button, buttonVariants } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { contentUrl, type FileView } from "@/components/files/files-api";
import { useFileWrites } from "@/components/files/file-writes";
import { EditFileDialog } from "@/components/files/edit-file-dialog";
import { FilePreviewDialog } from "@/components/files/file-preview-dialog";

function DeleteFileButton({ file }: { file: FileView }) {
  const router = useRouter();
  const writes = useFileWrites();
  const remove = async () => {
    const result = await writes.deleteFile(file.id);
    if (!result.ok) {
      toast.error(result.error);
      return false;
    }
    toast.success(`Deleted ${file.name}`);
    router.refresh();
  };
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="ghost" size="icon" aria-label={`Delete ${file.name}`} title="Delete">
          <Trash2 aria-hidden />
        </Button>
      }
      title={`Delete ${file.name}?`}
      description={
        <>
          The file is removed for good. Tools that still hold its URI <code className="font-mono">{file.uri}</code> will get &ldquo;not found&rdquo;.
        </>
      }
      confirmLabel="Delete file"
      pendingLabel="Deleting…"
      onConfirm={remove}
    />
  );
}

/** Preview, download, edit (owner) and delete (owner, or a workspace admin for a shared file). */
export function FileActions({ file, canEdit, canDelete }: { file: FileView; canEdit: boolean; canDelete: boolean }) {
  return (
    <div className="flex justify-end gap-0.5">
      <FilePreviewDialog file={file} />
      <a href={contentUrl(file.id)} download={file.name} aria-label={`Download ${file.name}`} title="Download" className={buttonVariants({ variant: "ghost", size: "icon" })}>
        <Download aria-hidden />
      </a>
      {canEdit && <EditFileDialog file={file} />}
      {canDelete && <DeleteFileButton file={file} />}
    </div>
  );
}
