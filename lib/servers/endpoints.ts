import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { CreateServerBody, McpServer, ServerListQuery, SetServerConnectorsBody, UpdateServerBody } from "@/lib/servers/schemas";
import { SetToolOverridesBody, ToolOverrides } from "@/lib/servers/tool-override-schemas";

const tag = "MCP servers";
const workspaceParams = z.object({ workspaceId: Id });
const serverParams = z.object({ serverId: Id });

export const serverEndpoints = {
  listServers: endpoint({ operationId: "listServers", method: "GET", path: "/workspaces/{workspaceId}/servers", tag, summary: "List a workspace's MCP servers", params: workspaceParams, query: ServerListQuery, response: pageSchema(McpServer) }),
  createServer: endpoint({ operationId: "createServer", etag: true, method: "POST", path: "/workspaces/{workspaceId}/servers", tag, summary: "Create an MCP server (served at its `url`, /mcp/<id>); not with a key pinned to one server (403)", params: workspaceParams, body: CreateServerBody, status: 201, response: McpServer }),
  getServer: endpoint({ operationId: "getServer", etag: true, method: "GET", path: "/servers/{serverId}", tag, summary: "Get an MCP server", params: serverParams, response: McpServer }),
  updateServer: endpoint({ operationId: "updateServer", etag: true, method: "PATCH", path: "/servers/{serverId}", tag, summary: "Rename an MCP server, change its instructions or its connectors", params: serverParams, body: UpdateServerBody, response: McpServer }),
  deleteServer: endpoint({ operationId: "deleteServer", etag: true, method: "DELETE", path: "/servers/{serverId}", tag, summary: "Delete an MCP server", params: serverParams, status: 204 }),
  setServerConnectors: endpoint({ operationId: "setServerConnectors", etag: true, method: "PUT", path: "/servers/{serverId}/connectors", tag, summary: "Replace the connectors assigned to an MCP server (in order); only connectors of the server's organization", params: serverParams, body: SetServerConnectorsBody, response: McpServer }),
  getToolOverrides: endpoint({ operationId: "getToolOverrides", etag: true, method: "GET", path: "/servers/{serverId}/tool-overrides", tag, summary: "What this server tells the model about its connectors' tools: renames, titles, descriptions, annotations and hidden tools (`missing`: the tool is gone upstream, the override is kept)", params: serverParams, response: ToolOverrides }),
  setToolOverrides: endpoint({ operationId: "setToolOverrides", etag: true, method: "PUT", path: "/servers/{serverId}/tool-overrides", tag, summary: "Replace the server's tool overrides (the whole set); 422 when two published names would collide (both named) or a connector is not assigned", params: serverParams, body: SetToolOverridesBody, response: ToolOverrides }),
};
