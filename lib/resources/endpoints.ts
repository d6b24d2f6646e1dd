import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkIdsBody, BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import { CreateStoredResourceBody, StoredResource, StoredResourceListQuery, UpdateStoredResourceBody } from "@/lib/resources/schemas";

const tag = "Stored resources";
const connectorParams = z.object({ connectorId: Id });

export const storedResourceEndpoints = {
  createStoredResource: endpoint({
    operationId: "createStoredResource",
    etag: true,
    method: "POST",
    path: "/connectors/{connectorId}/resources",
    tag,
    summary: "Add a stored resource to a connector",
    params: connectorParams,
    body: CreateStoredResourceBody,
    status: 201,
    response: StoredResource,
  }),
  listStoredResources: endpoint({ operationId: "listStoredResources", method: "GET", path: "/connectors/{connectorId}/resources", tag, summary: "List a connector's stored resources", params: connectorParams, query: StoredResourceListQuery, response: pageSchema(StoredResource) }),
  updateStoredResource: endpoint({
    operationId: "updateStoredResource",
    etag: true,
    method: "PATCH",
    path: "/resources/{resourceId}",
    tag,
    summary: "Change a stored resource (URI, name, description, MIME type, fetchConfig)",
    params: z.object({ resourceId: Id }),
    body: UpdateStoredResourceBody,
    response: StoredResource,
  }),
  deleteStoredResource: endpoint({ operationId: "deleteStoredResource", etag: true, method: "DELETE", path: "/resources/{resourceId}", tag, summary: "Delete a stored resource", params: z.object({ resourceId: Id }), status: 204 }),
  deleteStoredResources: endpoint({ operationId: "deleteStoredResources", method: "POST", path: "/resources/bulk-delete", tag, summary: "Delete several stored resources (each as DELETE /resources/{resourceId}, audited on its own)", body: BulkIdsBody, response: BulkResult }),
};
