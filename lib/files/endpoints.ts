import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkIdsBody, BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import { FileContent, FileQuery, StoredFile, UpdateFileBody, UploadFileForm } from "@/lib/files/schemas";

const tag = "Files";
const workspaceParams = z.object({ workspaceId: Id });
const fileParams = z.object({ fileId: Id });

export const fileEndpoints = {
  uploadFile: endpoint({ operationId: "uploadFile", etag: true, method: "POST", path: "/workspaces/{workspaceId}/files", tag, summary: "Upload a file (multipart/form-data, streamed)", params: workspaceParams, body: UploadFileForm, bodyMediaType: "multipart/form-data", status: 201, response: StoredFile }),
  listFiles: endpoint({ operationId: "listFiles", method: "GET", path: "/workspaces/{workspaceId}/files", tag, summary: "List the files the caller can see in a workspace", params: workspaceParams, query: FileQuery, response: pageSchema(StoredFile) }),
  getFile: endpoint({ operationId: "getFile", etag: true, method: "GET", path: "/files/{fileId}", tag, summary: "Get a file's metadata", params: fileParams, response: StoredFile }),
  updateFile: endpoint({ operationId: "updateFile", etag: true, method: "PATCH", path: "/files/{fileId}", tag, summary: "Rename a file, change its tags or visibility", params: fileParams, body: UpdateFileBody, response: StoredFile }),
  deleteFile: endpoint({ operationId: "deleteFile", etag: true, method: "DELETE", path: "/files/{fileId}", tag, summary: "Delete a file", params: fileParams, status: 204 }),
  deleteFiles: endpoint({ operationId: "deleteFiles", method: "POST", path: "/files/bulk-delete", tag, summary: "Delete several files (each as DELETE /files/{fileId}, audited on its own)", body: BulkIdsBody, response: BulkResult }),
  getFileContent: endpoint({ operationId: "getFileContent", method: "GET", path: "/files/{fileId}/content", tag, summary: "Download a file's bytes", params: fileParams, response: FileContent, responseMediaTypes: ["*/*"] }),
};
