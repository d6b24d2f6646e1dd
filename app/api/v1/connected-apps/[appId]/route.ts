import { apiRoute } from "@/lib/api/handler";
import { connectedAppEndpoints as e } from "@/lib/oauth/endpoints";
import { revokeConnectedApp } from "@/lib/oauth/connected-apps";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.revokeConnectedApp, ({ caller, params }) => revokeConnectedApp(caller, params.appId));
