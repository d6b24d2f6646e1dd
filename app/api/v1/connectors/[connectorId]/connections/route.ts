import { apiRoute } from "@/lib/api/handler";
import { connectionEndpoints as e } from "@/lib/connectors/upstream-auth/endpoints";
import { startConnection } from "@/lib/connectors/upstream-auth/connect";
import { listConnectorConnections } from "@/lib/connectors/upstream-auth/connections";
import { clientBaseUrl } from "@/lib/servers/server-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.startConnection, ({ caller, params, body, request }) => startConnection(caller, params.connectorId, body, clientBaseUrl(request.headers, request.url)));
export const GET = apiRoute(e.listConnectorConnections, ({ caller, params, query }) => listConnectorConnections(caller, params.connectorId, query));
