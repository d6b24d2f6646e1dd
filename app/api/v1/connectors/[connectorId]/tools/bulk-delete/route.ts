import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { deleteConnectorTools } from "@/lib/connectors/delete-connector-tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.deleteConnectorTools, ({ caller, params, body }) => deleteConnectorTools(caller, params.connectorId, body.ids));
