import { apiRoute } from "@/lib/api/handler";
import { auditEndpoints as e } from "@/lib/audit/endpoints";
import { auditExportResponse } from "@/lib/audit/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.exportAuditEvents, ({ caller, params, query }) => auditExportResponse(caller, params.orgId, query));
