import { z } from "zod";
import { endpoint, pageSchema } from "@/lib/api/endpoint";
import { Id } from "@/lib/schemas/common";
import { AuditEvent, AuditQuery } from "@/lib/audit/schemas";

const tag = "Audit";

export const auditEndpoints = {
  listAuditEvents: endpoint({
    method: "GET",
    path: "/orgs/{orgId}/audit",
    tag,
    summary: "An organization's audit log, newest first (owners and admins)",
    params: z.object({ orgId: Id }),
    query: AuditQuery,
    response: pageSchema(AuditEvent),
  }),
};
