import { apiRoute } from "@/lib/api/handler";
import { connectionEndpoints as e } from "@/lib/connectors/upstream-auth/endpoints";
import { deleteMyConnection } from "@/lib/connectors/upstream-auth/connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.deleteMyConnection, ({ caller, params }) => deleteMyConnection(caller, params.connectionId));
