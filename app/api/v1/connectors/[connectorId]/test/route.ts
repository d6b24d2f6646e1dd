import { apiRoute } from "@/lib/api/handler";
import { connectorHealthEndpoints as e } from "@/lib/connector-health/endpoints";
import { testConnection } from "@/lib/connector-health/test-connection";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.testConnector, ({ caller, params }) => testConnection(caller, params.connectorId));
