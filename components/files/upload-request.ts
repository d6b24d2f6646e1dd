import { ApiError, type FileView, problemMessage, type Visibility } from "@/components/files/files-api";

/**
 * One upload: POST /api/v1/workspaces/{id}/files as multipart/form-data over XMLHttpRequest,
 * the only browser API that reports upload progress. `abort()` cancels it; the server then
 * drops the partial blob, so a cancelled upload leaves nothing behind.
 */

export interface UploadOptions {
  tags: string[];
  visibility: Visibility;
}

export interface UploadRequest {
  done: Promise<FileView>;
  abort: () => void;
}

export class UploadAbortedError extends Error {
  constructor() {
    super("Upload cancelled.");
    this.name = "UploadAbortedError";
  }
}

export function startUpload(
  workspaceId: string,
  file: File,
  options: UploadOptions,
  onProgress: (loaded: number, total: number) => void,
): UploadRequest {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  // Fields first: the server streams the file part and already knows everything else.
  for (const tag of options.tags) form.append("tags", tag);
  form.append("visibility", options.visibility);
  form.append("file", file, file.name);

  const done = new Promise<FileView>((resolve, reject) => {
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener("load", () => {
      if (xhr.status === 201) {
        try {
          resolve(JSON.parse(xhr.responseText) as FileView);
        } catch {
          reject(new ApiError(xhr.status, "The server's answer could not be read. Reload the page to see whether the file arrived."));
        }
        return;
      }
      reject(new ApiError(xhr.status, problemMessage(xhr.status, xhr.responseText, xhr.getResponseHeader("retry-after"))));
    });
    xhr.addEventListener("error", () => reject(new ApiError(0, problemMessage(0, ""))));
    xhr.addEventListener("timeout", () => reject(new ApiError(0, problemMessage(0, ""))));
    xhr.addEventListener("abort", () => reject(new UploadAbortedError()));
  });

  xhr.open("POST", `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/files`);
  xhr.setRequestHeader("accept", "application/json, application/problem+json");
  xhr.send(form);
  return { done, abort: () => xhr.abort() };
}
