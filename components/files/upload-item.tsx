"use client";

import { CheckCircle2, CircleAlert, FileUp, RotateCcw, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/components/ui/cn";
import { formatBytes } from "@/components/files/format";
import type { UploadItem } from "@/components/files/use-uploads";

const STATUS_TEXT: Record<UploadItem["status"], string> = {
  uploading: "Uploading",
  processing: "Finishing",
  done: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

function percentOf(item: UploadItem): number {
  if (item.status === "done") return 100;
  return item.total > 0 ? Math.min(100, Math.floor((item.loaded / item.total) * 100)) : 0;
}

interface Props {
  item: UploadItem;
  onCancel: () => void;
  onRetry: () => void;
  onDismiss: () => void;
}

/** One file of the upload queue: name, progress bar, status, and what can be done with it now. */
export function UploadItemRow({ item, onCancel, onRetry, onDismiss }: Props) {
  const { file, status } = item;
  const percent = percentOf(item);
  const running = status === "uploading" || status === "processing";
  const Icon = status === "done" ? CheckCircle2 : status === "failed" ? CircleAlert : FileUp;
  return (
    <li className="grid gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-upload-status={status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Icon
          aria-hidden
          className={cn(
            "size-4 shrink-0",
            status === "done" ? "text-emerald-600 dark:text-emerald-400" : status === "failed" ? "text-red-600 dark:text-red-400" : "text-zinc-500",
          )}
        />
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={file.name}>
          {file.name}
        </span>
        <span className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
          {STATUS_TEXT[status]}
          {running && ` · ${percent}% · ${formatBytes(item.loaded)} of ${formatBytes(item.total)}`}
          {!running && ` · ${formatBytes(file.size)}`}
        </span>
        <div className="flex gap-1">
          {status === "done" && item.result && (
            <CopyButton value={item.result.uri} label="Copy URI" aria-label={`Copy the files:// URI of ${file.name}`} />
          )}
          {running && (
            <Button type="button" variant="outline" size="sm" onClick={onCancel} aria-label={`Cancel the upload of ${file.name}`}>
              <X aria-hidden />
              Cancel
            </Button>
          )}
          {(status === "cancelled" || (status === "failed" && item.retryable)) && (
            <Button type="button" variant="outline" size="sm" onClick={onRetry} aria-label={`Upload ${file.name} again`}>
              <RotateCcw aria-hidden />
              Retry
            </Button>
          )}
          {!running && (
            <Button type="button" variant="ghost" size="sm" onClick={onDismiss} aria-label={`Remove ${file.name} from this list`}>
              <X aria-hidden />
            </Button>
          )}
        </div>
      </div>
      <div
        role="progressbar"
        aria-label={`Upload of ${file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% (${STATUS_TEXT[status].toLowerCase()})`}
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={cn(
            "h-full rounded-full transition-[width] duration-200",
            status === "failed" ? "bg-red-500" : status === "cancelled" ? "bg-zinc-400 dark:bg-zinc-600" : status === "done" ? "bg-emerald-500" : "bg-sky-500",
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      {item.error && <p className="text-sm text-red-700 dark:text-red-400">{item.error}</p>}
      {status === "done" && item.result && (
        <p className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">{item.result.uri}</p>
      )}
    </li>
  );
}
