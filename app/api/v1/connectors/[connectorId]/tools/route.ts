import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { listConnectorTools } from "@/lib/connectors/list-connector-tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listConnectorTools, ({ caller, params, query }) => listConnectorTools(caller, params.connectorId, query));
