import { apiRoute } from "@/lib/api/handler";
import { connectedAppEndpoints as e } from "@/lib/oauth/endpoints";
import { listOrgConnectedApps } from "@/lib/oauth/connected-apps";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listOrgConnectedApps, ({ caller, params, query }) => listOrgConnectedApps(caller, params.orgId, query));
