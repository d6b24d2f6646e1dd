import { apiRoute } from "@/lib/api/handler";
import { connectionEndpoints as e } from "@/lib/connectors/upstream-auth/endpoints";
import { deleteConnection } from "@/lib/connectors/upstream-auth/connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = apiRoute(e.deleteConnection, ({ caller, params }) => deleteConnection(caller, params.connectionId));
