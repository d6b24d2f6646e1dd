import { apiRoute } from "@/lib/api/handler";
import { usageEndpoints as e } from "@/lib/usage/endpoints";
import { orgUsage } from "@/lib/usage/usage-report";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.orgUsage, ({ caller, params, query }) => orgUsage(caller, params.orgId, query.range));
