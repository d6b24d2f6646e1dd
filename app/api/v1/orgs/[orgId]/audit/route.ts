import { apiRoute } from "@/lib/api/handler";
import { auditEndpoints as e } from "@/lib/audit/endpoints";
import { listAuditEvents } from "@/lib/audit/list-audit-events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute(e.listAuditEvents, ({ caller, params, query }) => listAuditEvents(caller, params.orgId, query));
