import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { deleteConnectors } from "@/lib/connectors/connectors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.deleteConnectors, ({ caller, body }) => deleteConnectors(caller, body.ids));
