import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";

/** The connection endpoints of issue 24 point 3. */

const tag = "Connections";

export const StartConnectionBody = z
  .object({ returnTo: z.string().max(2048).optional().meta({ description: "A path on this site to return to at the end (same origin only); absent: a page that says it worked." }) })
  .meta({ id: "StartConnection" });

export const StartedConnection = z
  .object({ authorizationUrl: z.string().meta({ description: "Open in the person's browser: the upstream's sign-in and consent, then back to /api/connections/callback." }) })
  .meta({ id: "StartedConnection" });

export const UpstreamConnection = z
  .object({
    id: z.string(),
    connectorId: z.string(),
    connectorName: z.string(),
    connection: z.enum(["per_user", "shared"]),
    status: z.enum(["connected", "needs_reconnect"]),
    scopes: z.array(z.string()),
    stepUpScopes: z
      .array(z.string())
      .optional()
      .meta({
        description:
          "Present when the upstream asked for more access than the connection grants (a 403 insufficient_scope): the scopes the next connect asks for (those it has plus those asked). The connection still works for every call its scopes allow; connect again to grant the rest.",
      }),
    expiresAt: z.iso.datetime().nullable().meta({ description: "When the current access token ends (it is renewed by itself while the refresh token works)." }),
    createdAt: z.iso.datetime(),
    user: z
      .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
      .nullable()
      .optional()
      .meta({ description: "Admin list only: whose account it is (per_user) or who connected it (shared); null once that person is gone." }),
  })
  .meta({ id: "UpstreamConnection" });

const connectorParams = z.object({ connectorId: Id });
const connectionParams = z.object({ connectionId: Id });

export const connectionEndpoints = {
  startConnection: endpoint({
    operationId: "createConnection",
    method: "POST",
    path: "/connectors/{connectorId}/connections",
    tag,
    summary: "Start connecting the calling person's upstream account (a shared connector: owners and admins) and get the authorization URL to open",
    params: connectorParams,
    body: StartConnectionBody,
    status: 201,
    response: StartedConnection,
    conflict: "The connector does not use OAuth connections",
  }),
  listConnectorConnections: endpoint({ operationId: "listConnectorConnections", method: "GET", path: "/connectors/{connectorId}/connections", tag, summary: "Who is connected to a connector and since when (owners and admins; never a token)", params: connectorParams, query: PageQuery, response: pageSchema(UpstreamConnection) }),
  deleteConnection: endpoint({ operationId: "deleteConnection", method: "DELETE", path: "/connections/{connectionId}", tag, summary: "Remove anyone's connection of the organization (owners and admins), revoked upstream where offered", params: connectionParams, status: 204 }),
  listMyConnections: endpoint({ operationId: "listMyConnections", method: "GET", path: "/me/connections", tag, summary: "The calling person's upstream connections (and the shared ones they made)", query: PageQuery, response: pageSchema(UpstreamConnection) }),
  deleteMyConnection: endpoint({ operationId: "deleteMyConnection", method: "DELETE", path: "/me/connections/{connectionId}", tag, summary: "Disconnect one of one's own connections, revoking its tokens upstream (RFC 7009) where offered", params: connectionParams, status: 204 }),
};
