import { apiRoute } from "@/lib/api/handler";
import { connectorHealthEndpoints as e } from "@/lib/connector-health/endpoints";
import { setConnectorProbe } from "@/lib/connector-health/connector-health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const PUT = apiRoute(e.setConnectorProbe, ({ caller, params, body }) => setConnectorProbe(caller, params.connectorId, body));
