import { apiRoute } from "@/lib/api/handler";
import { knowledgeGraphEndpoints as e } from "@/lib/knowledge-graph/endpoints";
import { getManualGraph, putManualGraph } from "@/lib/knowledge-graph/manual-graph";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.getManualGraph, ({ caller, params }) => getManualGraph(caller, params.connectorId));
export const PUT = apiRoute(e.putManualGraph, ({ caller, params, body, ifMatch }) => putManualGraph(caller, params.connectorId, body, ifMatch));
