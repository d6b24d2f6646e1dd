import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { BulkIdsBody, BulkResult } from "@/lib/api/bulk";
import { Id } from "@/lib/schemas/common";
import { Connector, ConnectorListQuery, ConnectorTool, CreateConnectorBody, ListedTool, ToolListQuery, UpdateConnectorBody } from "@/lib/connectors/schemas";
import { ImportOpenApiBody, OpenApiImportResult } from "@/lib/connectors/openapi-import-schemas";

const tag = "Connectors";
const orgParams = z.object({ orgId: Id });
const connectorParams = z.object({ connectorId: Id });
const toolParams = z.object({ connectorId: Id, tool: z.string().min(1).max(200) });

export const connectorEndpoints = {
  listConnectors: endpoint({ operationId: "listConnectors", method: "GET", path: "/orgs/{orgId}/connectors", tag, summary: "List the connectors of an organization", params: orgParams, query: ConnectorListQuery, response: pageSchema(Connector) }),
  createConnector: endpoint({
    operationId: "createConnector",
    etag: true,
    method: "POST",
    path: "/orgs/{orgId}/connectors",
    tag,
    summary: "Create a connector (an mcp connector's tools are discovered from its upstream)",
    params: orgParams,
    body: CreateConnectorBody,
    status: 201,
    response: Connector,
  }),
  getConnector: endpoint({ operationId: "getConnector", etag: true, method: "GET", path: "/connectors/{connectorId}", tag, summary: "Get a connector (secret headers are never returned)", params: connectorParams, response: Connector }),
  updateConnector: endpoint({
    operationId: "updateConnector",
    etag: true,
    method: "PATCH",
    path: "/connectors/{connectorId}",
    tag,
    summary: "Change a connector's name, instructions, config, secret headers or (http) tools",
    params: connectorParams,
    body: UpdateConnectorBody,
    response: Connector,
  }),
  deleteConnector: endpoint({ operationId: "deleteConnector", etag: true, method: "DELETE", path: "/connectors/{connectorId}", tag, summary: "Delete a connector with its tools, resources and graph", params: connectorParams, status: 204 }),
  deleteConnectors: endpoint({ operationId: "deleteConnectors", method: "POST", path: "/connectors/bulk-delete", tag, summary: "Delete several connectors (each as DELETE /connectors/{connectorId}, audited on its own)", body: BulkIdsBody, response: BulkResult }),
  approveConnectorTool: endpoint({ operationId: "approveConnectorTool", method: "POST", path: "/connectors/{connectorId}/tools/{tool}/approve", tag, summary: "Approve a tool waiting for approval (its description, input schema or annotations changed upstream, or it is new): its current definition is served from now on", params: toolParams, response: ConnectorTool }),
  listConnectorTools: endpoint({ operationId: "listConnectorTools", method: "GET", path: "/connectors/{connectorId}/tools", tag, summary: "List a connector's tools, searched and sorted, a page at a time", params: connectorParams, query: ToolListQuery, response: pageSchema(ListedTool) }),
  deleteConnectorTools: endpoint({
    operationId: "deleteConnectorTools",
    method: "POST",
    path: "/connectors/{connectorId}/tools/bulk-delete",
    tag,
    summary: "Remove several tools of an http connector (the PATCH of its tool set without them, audited once); 409 for an mcp connector",
    params: connectorParams,
    body: BulkIdsBody,
    response: BulkResult,
    conflict: "The connector is an mcp connector: its tools are its upstream's",
  }),
  reloadConnector: endpoint({
    operationId: "reloadConnector",
    etag: true,
    method: "POST",
    path: "/connectors/{connectorId}/reload",
    tag,
    summary: "Re-discover an mcp connector's tools from its upstream server (an OAuth connector: with the caller's connection)",
    params: connectorParams,
    response: Connector,
    conflict: "An OAuth connector the caller has no connection to: connect to discover tools",
  }),
  importOpenApi: endpoint({
    operationId: "importOpenApi",
    method: "POST",
    path: "/orgs/{orgId}/connectors/import-openapi",
    tag,
    summary: "Read an OpenAPI 3 document into candidate http tools, title, base URL and secret headers (stores nothing)",
    params: orgParams,
    body: ImportOpenApiBody,
    response: OpenApiImportResult,
  }),
};
