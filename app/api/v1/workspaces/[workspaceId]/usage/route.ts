import { apiRoute } from "@/lib/api/handler";
import { usageEndpoints as e } from "@/lib/usage/endpoints";
import { workspaceUsage } from "@/lib/usage/usage-report";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.workspaceUsage, ({ caller, params, query }) => workspaceUsage(caller, params.workspaceId, query.range));
