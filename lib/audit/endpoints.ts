import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { AuditEvent, AuditExportQuery, AuditQuery } from "@/lib/audit/schemas";

const tag = "Audit";

export const auditEndpoints = {
  listAuditEvents: endpoint({
    operationId: "listAuditEvents",
    method: "GET",
    path: "/orgs/{orgId}/audit",
    tag,
    summary: "An organization's audit log, newest first (owners and admins)",
    params: z.object({ orgId: Id }),
    query: AuditQuery,
    response: pageSchema(AuditEvent),
  }),
  exportAuditEvents: endpoint({
    operationId: "exportAuditEvents",
    method: "GET",
    path: "/orgs/{orgId}/audit/export",
    tag,
    summary: "Every event of a filter as a streamed download: CSV or JSON Lines (owners and admins)",
    params: z.object({ orgId: Id }),
    query: AuditExportQuery,
    responseMediaTypes: ["text/csv", "application/x-ndjson"],
    response: z.string().meta({ description: "`text/csv` (a header row, then one row per event) or `application/x-ndjson` (one AuditEvent per line), newest first." }),
  }),
};
