import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { listConnectors } from "@/lib/connectors/connectors";
import { createConnector } from "@/lib/connectors/create-connector";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listConnectors, ({ caller, params, query }) => listConnectors(caller, params.orgId, query));
export const POST = apiRoute(e.createConnector, ({ caller, params, body }) => createConnector(caller, params.orgId, body));
