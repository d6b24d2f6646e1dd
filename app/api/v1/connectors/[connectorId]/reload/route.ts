import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { reloadConnector } from "@/lib/connectors/reload-connector";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.reloadConnector, ({ caller, params }) => reloadConnector(caller, params.connectorId));
