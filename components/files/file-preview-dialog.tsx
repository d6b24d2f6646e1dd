"use client";

import { Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { focusRing } from "@/components/ui/focus-ring";
import { cn } from "@/components/ui/cn";
import { contentUrl, type FileView, readTextHead } from "@/components/files/files-api";
import { formatBytes, isImageType, isTextType } from "@/components/files/format";

/** Text previews read at most this much of the file. */
export const TEXT_PREVIEW_BYTES = 64 * 1024;

type TextState = { state: "loading" } | { state: "ready"; text: string; truncated: boolean } | { state: "failed"; message: string };

function TextPreview({ file }: { file: FileView }) {
  const [view, setView] = useState<TextState>({ state: "loading" });
  useEffect(() => {
    const abort = new AbortController();
    readTextHead(file.id, TEXT_PREVIEW_BYTES, abort.signal).then(
      (result) => setView({ state: "ready", ...result }),
      (error: unknown) => {
        if (!abort.signal.aborted) setView({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => abort.abort();
  }, [file.id]);
  if (view.state === "loading") return <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">Loading the preview…</p>;
  if (view.state === "failed") return <Alert>The preview could not be loaded. {view.message}</Alert>;
  return (
    <div className="grid gap-2">
      {view.truncated && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Showing the first {formatBytes(TEXT_PREVIEW_BYTES)} of {formatBytes(file.size)}. Download the file to see all of it.
        </p>
      )}
      <pre
        tabIndex={0}
        aria-label={`Contents of ${file.name}`}
        className={cn(
          "max-h-[60dvh] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap dark:border-zinc-800 dark:bg-zinc-950",
          focusRing,
        )}
      >
        {view.text || "(empty file)"}
      </pre>
    </div>
  );
}

function NoPreview({ file }: { file: FileView }) {
  return (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      There is no preview for {file.mimeType} files. Download the file to open it.
    </p>
  );
}

function ImagePreview({ file }: { file: FileView }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <NoPreview file={file} />;
  return (
    // The bytes come from the API with the session cookie; there is nothing for next/image to optimise.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={contentUrl(file.id)}
      alt={`Preview of ${file.name}`}
      onError={() => setFailed(true)}
      className="mx-auto max-h-[60dvh] max-w-full rounded-md border border-zinc-200 object-contain dark:border-zinc-800"
    />
  );
}

function PreviewBody({ file }: { file: FileView }) {
  if (isTextType(file.mimeType)) return <TextPreview file={file} />;
  if (isImageType(file.mimeType)) return <ImagePreview file={file} />;
  return <NoPreview file={file} />;
}

/** A button that shows a file in a dialog: the first 64 KB of text, or the image itself. */
export function FilePreviewDialog({ file }: { file: FileView }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button type="button" variant="ghost" size="icon" aria-label={`Preview ${file.name}`} title="Preview">
          <Eye aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent title={file.name} description={`${file.mimeType} · ${formatBytes(file.size)}`} className="max-w-3xl">
        <PreviewBody file={file} />
        <div className="flex justify-end">
          <a href={contentUrl(file.id)} download={file.name} className={buttonVariants({ variant: "outline", size: "sm" })}>
            Download
          </a>
        </div>
      </DialogContent>
    </Dialog>
  );
}
