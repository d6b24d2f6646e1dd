import { apiRoute } from "@/lib/api/handler";
import { connectionEndpoints as e } from "@/lib/connectors/upstream-auth/endpoints";
import { listMyConnections } from "@/lib/connectors/upstream-auth/connections";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listMyConnections, ({ caller, query }) => listMyConnections(caller, query));
