import { apiRoute } from "@/lib/api/handler";
import { serverEndpoints as e } from "@/lib/servers/endpoints";
import { createServer, listServers } from "@/lib/servers/servers";
import { clientBaseUrl } from "@/lib/servers/server-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listServers, ({ caller, params, query, request }) => listServers(caller, params.workspaceId, query, clientBaseUrl(request.headers, request.url)));
export const POST = apiRoute(e.createServer, ({ caller, params, body, request }) => createServer(caller, params.workspaceId, body, clientBaseUrl(request.headers, request.url)));
