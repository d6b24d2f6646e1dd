import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { listQuery } from "@/lib/api/list-query";
import { Id } from "@/lib/schemas/common";

const tag = "Connected apps";

/** An OAuth client (MCP app) a person allowed, and what it may reach. */
export const ConnectedApp = z
  .object({
    id: z.string().meta({ description: "The grant's id (what DELETE /connected-apps/{appId} takes)." }),
    clientId: z.string(),
    clientName: z.string(),
    userId: z.string(),
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    orgId: z.string(),
    workspaceId: z.string(),
    resource: z.string().meta({ description: "The MCP endpoint URL its tokens are bound to (`…/mcp` or `…/mcp/<serverId>`)." }),
    serverId: z.string().nullable().meta({ description: "The server of a `/mcp/<serverId>` grant; null for `/mcp`." }),
    servers: z.array(z.object({ id: z.string(), name: z.string() })).meta({ description: "The servers it may reach, as chosen on the consent page." }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ConnectedApp" });

/** List parameters of connected apps: search in the app's name and the person's name or email. */
export const ConnectedAppListQuery = listQuery(["clientName", "createdAt"], "app names and the names and emails of who allowed them");
export type ConnectedAppListQuery = z.infer<typeof ConnectedAppListQuery>;

export const connectedAppEndpoints = {
  listMyConnectedApps: endpoint({ operationId: "listMyConnectedApps", method: "GET", path: "/me/connected-apps", tag, summary: "The OAuth apps the caller allowed, in every organization, with the servers each may reach", query: ConnectedAppListQuery, response: pageSchema(ConnectedApp) }),
  listOrgConnectedApps: endpoint({ operationId: "listOrgConnectedApps", method: "GET", path: "/orgs/{orgId}/connected-apps", tag, summary: "Every OAuth app allowed by anyone in an organization (its admins)", params: z.object({ orgId: Id }), query: ConnectedAppListQuery, response: pageSchema(ConnectedApp) }),
  revokeConnectedApp: endpoint({ operationId: "revokeConnectedApp", method: "DELETE", path: "/connected-apps/{appId}", tag, summary: "Revoke a connected app: its tokens stop working on their next request, and it must ask again", params: z.object({ appId: Id }), status: 204 }),
};
