import { apiRoute } from "@/lib/api/handler";
import { serverEndpoints as e } from "@/lib/servers/endpoints";
import { deleteServer, getServer, updateServer } from "@/lib/servers/servers";
import { clientBaseUrl } from "@/lib/servers/server-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getServer, ({ caller, params, request }) => getServer(caller, params.serverId, clientBaseUrl(request.headers, request.url)));
export const PATCH = apiRoute(e.updateServer, ({ caller, params, body, request, ifMatch }) => updateServer(caller, params.serverId, body, clientBaseUrl(request.headers, request.url), ifMatch));
export const DELETE = apiRoute(e.deleteServer, ({ caller, params, request, ifMatch }) => deleteServer(caller, params.serverId, { ifMatch, baseUrl: clientBaseUrl(request.headers, request.url) }));
