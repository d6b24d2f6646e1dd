import { apiRoute } from "@/lib/api/handler";
import { connectedAppEndpoints as e } from "@/lib/oauth/endpoints";
import { listMyConnectedApps } from "@/lib/oauth/connected-apps";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listMyConnectedApps, ({ caller, query }) => listMyConnectedApps(caller, query));
