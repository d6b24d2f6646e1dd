import { apiRoute } from "@/lib/api/handler";
import { serverEndpoints as e } from "@/lib/servers/endpoints";
import { getToolOverrides, setToolOverrides } from "@/lib/servers/tool-overrides";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getToolOverrides, ({ caller, params }) => getToolOverrides(caller, params.serverId));
export const PUT = apiRoute(e.setToolOverrides, ({ caller, params, body, ifMatch }) => setToolOverrides(caller, params.serverId, body, ifMatch));
