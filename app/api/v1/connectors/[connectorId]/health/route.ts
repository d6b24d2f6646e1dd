import { apiRoute } from "@/lib/api/handler";
import { connectorHealthEndpoints as e } from "@/lib/connector-health/endpoints";
import { getConnectorHealth } from "@/lib/connector-health/connector-health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getConnectorHealth, ({ caller, params }) => getConnectorHealth(caller, params.connectorId));
