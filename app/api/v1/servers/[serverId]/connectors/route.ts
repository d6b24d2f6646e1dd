import { apiRoute } from "@/lib/api/handler";
import { serverEndpoints as e } from "@/lib/servers/endpoints";
import { setServerConnectors } from "@/lib/servers/servers";
import { clientBaseUrl } from "@/lib/servers/server-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PUT = apiRoute(e.setServerConnectors, ({ caller, params, body, request, ifMatch }) => setServerConnectors(caller, params.serverId, body.connectorIds, clientBaseUrl(request.headers, request.url), ifMatch));
