import { z } from "zod";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";
import { AUDIT_ACTION_NAMES } from "@/lib/audit/actions";

const Instant = z.iso.datetime({ offset: true });

/** The filters of the audit log, shared by its pages and its export. */
const auditFilters = {
  action: z.enum(AUDIT_ACTION_NAMES, { error: "Not an audit action (see the list in the API description)." }).optional().meta({ description: "Events of this action (lib/audit/actions.ts lists them)." }),
  actorId: Id.optional(),
  targetType: z.string().max(100).optional(),
  targetId: Id.optional(),
  workspaceId: Id.optional(),
  since: Instant.optional().meta({ description: "Events at or after this instant." }),
  until: Instant.optional().meta({ description: "Events at or before this instant." }),
  serverId: Id.optional().meta({ description: "Tool calls made through this MCP server." }),
  tool: z.string().max(200).optional().meta({ description: "Tool calls of this tool (its name in its connector)." }),
  outcome: z.enum(["ok", "isError", "error", "started"]).optional().meta({ description: "Tool calls that ended so (`started`: outcome unknown — no ending was recorded: still running, or the instance stopped before writing it)." }),
};

export const AuditQuery = PageQuery.extend(auditFilters);
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditFilters = z.object(auditFilters);
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditExportQuery = AuditFilters.extend({
  format: z.enum(["csv", "jsonl"]).default("jsonl").meta({ description: "CSV (one row per event) or JSON Lines (one event per line)." }),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

export const AuditEvent = z
  .object({
    id: z.string(),
    orgId: z.string().nullable(),
    workspaceId: z.string().nullable(),
    actorType: z.enum(["instance", "user", "api_key", "oauth_client", "anonymous"]),
    actorId: z.string().nullable(),
    action: z.enum(AUDIT_ACTION_NAMES),
    targetType: z.string(),
    targetId: z.string().nullable(),
    data: z.unknown().meta({ description: "What changed (never a secret)." }),
    createdAt: z.iso.datetime(),
    traceId: z
      .string()
      .nullable()
      .meta({ description: "The W3C trace id (32 hex digits) of the request that caused the event, as the request's spans and log lines carry it; null when tracing is off (no OTEL_* setting) or the event has no request." }),
    names: z
      .object({
        actor: z.string().nullable(),
        workspace: z.string().nullable(),
        target: z.string().nullable(),
        server: z.string().nullable(),
        connector: z.string().nullable(),
      })
      .meta({ description: "Names of the ids above as they are now (null: no id; `(deleted)`: the object is gone)." }),
    toolCall: z
      .object({ tool: z.string().nullable(), outcome: z.string().nullable(), durationMs: z.number().nullable() })
      .nullable()
      .meta({ description: "For calls in flight (`tool.call`, `prompt.get`, `resource.read`): the tool, prompt or resource URI and how the call ended (`ok`, `isError`, `error`; `started`: outcome unknown — still running, or no ending was recorded)." }),
  })
  .meta({ id: "AuditEvent" });
