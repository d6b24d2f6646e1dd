"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, type FileView } from "@/components/files/files-api";
import { startUpload, UploadAbortedError, type UploadOptions, type UploadRequest } from "@/components/files/upload-request";
import { formatBytes } from "@/components/files/format";

export type UploadStatus = "uploading" | "processing" | "done" | "failed" | "cancelled";

export interface UploadItem {
  key: string;
  file: File;
  options: UploadOptions;
  loaded: number;
  total: number;
  status: UploadStatus;
  error?: string;
  /** Whether trying again can help (a lost connection, a busy server), unlike a file that is too large. */
  retryable?: boolean;
  result?: FileView;
}

interface Callbacks {
  /** A file was stored (refresh the list). */
  onUploaded: (file: FileView) => void;
  /** A short sentence for screen readers (finished, failed, cancelled). */
  announce: (message: string) => void;
}

/**
 * The upload queue of the files page: every file uploads at once with its own progress,
 * and can be cancelled, retried or dismissed. Uploads still running when the page goes away
 * are cancelled (the server then keeps nothing of them).
 */
export function useUploads(workspaceId: string, maxUploadBytes: number, { onUploaded, announce }: Callbacks) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const requests = useRef(new Map<string, UploadRequest>());
  const nextKey = useRef(0);
  const callbacks = useRef({ onUploaded, announce });
  useEffect(() => {
    callbacks.current = { onUploaded, announce };
  });

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const run = useCallback(
    (item: UploadItem) => {
      const { key, file } = item;
      const request = startUpload(workspaceId, file, item.options, (loaded, total) =>
        update(key, { loaded, total, status: loaded >= total ? "processing" : "uploading" }),
      );
      requests.current.set(key, request);
      request.done.then(
        (result) => {
          update(key, { status: "done", result, loaded: file.size, total: file.size });
          callbacks.current.announce(`${file.name} uploaded.`);
          callbacks.current.onUploaded(result);
        },
        (error: unknown) => {
          if (error instanceof UploadAbortedError) {
            update(key, { status: "cancelled" });
            callbacks.current.announce(`Upload of ${file.name} cancelled.`);
            return;
          }
          const message = error instanceof Error ? error.message : String(error);
          const status = error instanceof ApiError ? error.status : 0;
          update(key, { status: "failed", error: message, retryable: status === 0 || status === 401 || status === 429 || status >= 500 });
          callbacks.current.announce(`${file.name} was not uploaded: ${message}`);
        },
      ).finally(() => requests.current.delete(key));
    },
    [workspaceId, update],
  );

  const add = useCallback(
    (files: File[], options: UploadOptions) => {
      const added = files.map((file): UploadItem => {
        const base = { key: `upload-${nextKey.current++}`, file, options, loaded: 0, total: file.size };
        // The server would refuse it only after receiving all of it (a minute for 200 MB): say so now.
        if (file.size > maxUploadBytes) {
          const error = `Too large. ${file.name} has ${formatBytes(file.size)}; the upload limit is ${formatBytes(maxUploadBytes)}.`;
          return { ...base, status: "failed", error, retryable: false };
        }
        return { ...base, status: "uploading" };
      });
      setItems((list) => [...added, ...list]);
      added.filter((item) => item.status === "uploading").forEach(run);
    },
    [run, maxUploadBytes],
  );

  const cancel = useCallback((key: string) => requests.current.get(key)?.abort(), []);
  const retry = useCallback(
    (item: UploadItem) => {
      update(item.key, { status: "uploading", loaded: 0, error: undefined });
      run(item);
    },
    [run, update],
  );
  const dismiss = useCallback((key: string) => setItems((list) => list.filter((item) => item.key !== key)), []);
  const clearFinished = useCallback(() => setItems((list) => list.filter((item) => item.status === "uploading" || item.status === "processing")), []);

  const active = items.some((item) => item.status === "uploading" || item.status === "processing");
  useEffect(() => {
    if (!active) return;
    // Closing or reloading the tab would cancel the uploads: ask first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
  useEffect(() => {
    const running = requests.current;
    return () => running.forEach((request) => request.abort());
  }, []);

  return { items, add, cancel, retry, dismiss, clearFinished, active };
}
