import { apiRoute } from "@/lib/api/handler";
import { connectorEndpoints as e } from "@/lib/connectors/endpoints";
import { approveTool } from "@/lib/connectors/approve-tool";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute(e.approveConnectorTool, ({ caller, params }) => approveTool(caller, params.connectorId, params.tool));
