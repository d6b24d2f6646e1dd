import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkIdsBody, BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import { ApiKey, ApiKeyListQuery, CreateApiKeyBody, CreatedApiKey } from "@/lib/api-keys/schemas";

const tag = "API keys";
const workspaceParams = z.object({ workspaceId: Id });
const keyParams = z.object({ keyId: Id });

export const apiKeyEndpoints = {
  listApiKeys: endpoint({ operationId: "listApiKeys", method: "GET", path: "/workspaces/{workspaceId}/api-keys", tag, summary: "List API keys (a member sees its own, a manager all)", params: workspaceParams, query: ApiKeyListQuery, response: pageSchema(ApiKey) }),
  createApiKey: endpoint({ operationId: "createApiKey", method: "POST", path: "/workspaces/{workspaceId}/api-keys", tag, summary: "Issue an API key; the secret `key` appears only in this answer. A key in an owner's name only by an owner or the instance credential (403)", params: workspaceParams, body: CreateApiKeyBody, status: 201, response: CreatedApiKey }),
  listMyApiKeys: endpoint({ operationId: "listMyApiKeys", method: "GET", path: "/me/api-keys", tag, summary: "The caller's own API keys in every organization, including those an admin issued in its name (with who did)", query: ApiKeyListQuery, response: pageSchema(ApiKey) }),
  revokeApiKey: endpoint({ operationId: "revokeApiKey", method: "DELETE", path: "/api-keys/{keyId}", tag, summary: "Revoke an API key and every key it issued, and theirs (effective on their next request). An owner's key only by an owner or the instance credential (403)", params: keyParams, status: 204 }),
  revokeApiKeys: endpoint({ operationId: "revokeApiKeys", method: "POST", path: "/api-keys/bulk-revoke", tag, summary: "Revoke several API keys (each as DELETE /api-keys/{keyId}, audited on its own)", body: BulkIdsBody, response: BulkResult }),
};
