import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { deleteConnector, getConnector, updateConnector } from "@/lib/connectors/connectors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getConnector, ({ caller, params }) => getConnector(caller, params.connectorId));
export const PATCH = apiRoute(e.updateConnector, ({ caller, params, body, ifMatch }) => updateConnector(caller, params.connectorId, body, ifMatch));
export const DELETE = apiRoute(e.deleteConnector, ({ caller, params, ifMatch }) => deleteConnector(caller, params.connectorId, ifMatch));
