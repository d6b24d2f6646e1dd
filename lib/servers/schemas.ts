import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Id, Markdown, Name } from "@/lib/schemas/common";

/** Connector ids in assignment order; each connector at most once. */
const ConnectorIds = z
  .array(Id)
  .max(200)
  .refine((ids) => new Set(ids).size === ids.length, "Each connector may be listed only once.");

export const CreateServerBody = z
  .object({ name: Name, instructions: Markdown.nullable().optional(), connectorIds: ConnectorIds.optional() })
  .meta({ id: "CreateServer" });
export type CreateServerBody = z.infer<typeof CreateServerBody>;

export const UpdateServerBody = z
  .object({ name: Name.optional(), instructions: Markdown.nullable().optional(), connectorIds: ConnectorIds.optional() })
  .meta({ id: "UpdateServer" });
export type UpdateServerBody = z.infer<typeof UpdateServerBody>;

export const SetServerConnectorsBody = z.object({ connectorIds: ConnectorIds }).meta({ id: "SetServerConnectors" });
export type SetServerConnectorsBody = z.infer<typeof SetServerConnectorsBody>;

export const McpServer = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.url().meta({ description: "The server's MCP endpoint: <public base URL>/mcp/<id>." }),
    workspaceId: z.string(),
    orgId: z.string(),
    instructions: z.string().nullable(),
    connectorIds: z.array(z.string()).meta({ description: "Assigned connectors, in order." }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "McpServer" });

/** List parameters of a workspace's MCP servers. */
export const ServerListQuery = listQuery(["name", "createdAt", "updatedAt"], "names");
export type ServerListQuery = z.infer<typeof ServerListQuery>;
