"use client";

import { type ReactNode, createContext, useContext } from "react";
import type { ActionResult } from "@/components/forms/action-result";
import type { FileView, Visibility } from "@/components/files/files-api";

/**
 * The files page's writes: the server actions its page hands in (components never import from
 * app/), used by the edit and delete controls deep in the file table without threading them
 * through every row.
 */
export interface FileWrites {
  updateFile: (fileId: string, change: { name?: string; tags?: string[]; visibility?: Visibility }) => Promise<ActionResult<FileView>>;
  deleteFile: (fileId: string) => Promise<ActionResult<null>>;
}

const FileWritesContext = createContext<FileWrites | null>(null);

export function FileWritesProvider({ writes, children }: { writes: FileWrites; children: ReactNode }) {
  return <FileWritesContext value={writes}>{children}</FileWritesContext>;
}

export function useFileWrites(): FileWrites {
  const writes = useContext(FileWritesContext);
  if (!writes) throw new Error("useFileWrites outside a FileWritesProvider: the files page provides the actions.");
  return writes;
}
