import { z } from "zod";
import { Name, Slug } from "@/lib/schemas/common";

export const CreateOrgBody = z.object({ name: Name, slug: Slug }).meta({ id: "CreateOrg" });
export type CreateOrgBody = z.infer<typeof CreateOrgBody>;

/**
 * What the org's tool.call audit events keep besides who, which tool, when, how long, the
 * outcome, and the size and sha-256 of the arguments and the result. Every admin of the org
 * reads the audit log, and a result can hold a member's private file: results are kept only
 * when an owner chooses `arguments_and_results`.
 */
export const ToolAuditDetail = z
  .enum(["metadata", "arguments", "arguments_and_results"])
  .meta({
    id: "ToolAuditDetail",
    description:
      "What tool.call audit events keep. `metadata` (default): who called which tool, when, the outcome, and the size and sha-256 of the arguments and result — no content. " +
      "`arguments`: also the arguments (secret-looking keys redacted). `arguments_and_results`: also the results, which can hold members' private files, readable by every org admin. " +
      "Stored arguments and results are each cut to 16 KB of JSON (`{ truncated: true, bytes, preview }`). Only an org owner (or the instance credential) may change it.",
  });
export type ToolAuditDetail = z.infer<typeof ToolAuditDetail>;

export const AuditRetentionDays = z
  .number()
  .int()
  .min(1)
  .max(36500)
  .nullable()
  .meta({ description: "Days audit events are kept; older ones are deleted by a periodic prune. `null` (default): kept for ever. Only an org owner (or the instance credential) may change it." });

export const UpdateOrgBody = z
  .object({ name: Name.optional(), slug: Slug.optional(), toolAuditDetail: ToolAuditDetail.optional(), auditRetentionDays: AuditRetentionDays.optional() })
  .meta({ id: "UpdateOrg" });
export type UpdateOrgBody = z.infer<typeof UpdateOrgBody>;

export const Org = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), toolAuditDetail: ToolAuditDetail, auditRetentionDays: z.number().int().nullable(), createdAt: z.iso.datetime(), updatedAt: z.iso.datetime() })
  .meta({ id: "Org" });
