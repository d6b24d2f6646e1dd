"use client";

import { UploadCloud } from "lucide-react";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

const hasFiles = (event: { dataTransfer: DataTransfer | null }) => Boolean(event.dataTransfer?.types.includes("Files"));

/** The dropped files, without folders (a browser hands those over as empty, unreadable entries). */
function droppedFiles(data: DataTransfer): { files: File[]; skipped: number } {
  const files: File[] = [];
  let skipped = 0;
  Array.from(data.items).forEach((item) => {
    if (item.kind !== "file") return;
    const entry = item.webkitGetAsEntry?.();
    const file = item.getAsFile();
    if (!file || entry?.isDirectory) skipped++;
    else files.push(file);
  });
  if (files.length === 0 && skipped === 0) files.push(...Array.from(data.files));
  return { files, skipped };
}

/**
 * Where files go in: a large button that opens the file picker (keyboard: Tab, then Enter or
 * Space) and accepts files dropped onto it. Files dropped elsewhere on the page are ignored
 * instead of making the browser navigate away to them.
 */
export function DropZone({ onFiles, hint, disabled }: { onFiles: (files: File[], skippedFolders: number) => void; hint: string; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [over, setOver] = useState(false);
  const hintId = useId();

  useEffect(() => {
    const ignore = (event: globalThis.DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    window.addEventListener("dragover", ignore);
    window.addEventListener("drop", ignore);
    return () => {
      window.removeEventListener("dragover", ignore);
      window.removeEventListener("drop", ignore);
    };
  }, []);

  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current++;
    setOver(true);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? "none" : "copy";
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    if (disabled) return;
    const { files, skipped } = droppedFiles(event.dataTransfer);
    if (files.length > 0 || skipped > 0) onFiles(files, skipped);
  };

  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => input.current?.click()}
        onDragEnter={onDragEnter}
        onDragLeave={onDragLeave}
        onDragOver={onDragOver}
        onDrop={onDrop}
        aria-describedby={hintId}
        data-dragging={over || undefined}
        className={cn(
          "grid w-full justify-items-center gap-2 rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors",
          "border-zinc-300 bg-zinc-50 hover:border-zinc-400 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-950/40 dark:hover:border-zinc-500 dark:hover:bg-zinc-900",
          "data-[dragging]:border-sky-500 data-[dragging]:bg-sky-50 dark:data-[dragging]:border-sky-400 dark:data-[dragging]:bg-sky-950/40",
          "disabled:cursor-not-allowed disabled:opacity-50",
          focusRing,
        )}
      >
        <UploadCloud aria-hidden className="size-8 text-zinc-500 dark:text-zinc-400" />
        <span className="text-sm font-medium">
          Drop files here or <span className="text-sky-700 underline dark:text-sky-300">choose files</span>
        </span>
        <span id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden
        data-testid="file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = "";
          if (files.length > 0) onFiles(files, 0);
        }}
      />
    </>
  );
}
