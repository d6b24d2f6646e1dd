import { z } from "zod";
import { PageQuery } from "@/lib/api/pagination";
import { Id } from "@/lib/schemas/common";

const Instant = z.iso.datetime({ offset: true });

export const AuditQuery = PageQuery.extend({
  action: z.string().max(200).optional().meta({ description: "e.g. `server.create`" }),
  actorId: Id.optional(),
  targetType: z.string().max(100).optional(),
  targetId: Id.optional(),
  workspaceId: Id.optional(),
  since: Instant.optional().meta({ description: "Events at or after this instant." }),
  until: Instant.optional().meta({ description: "Events at or before this instant." }),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEvent = z
  .object({
    id: z.string(),
    orgId: z.string().nullable(),
    workspaceId: z.string().nullable(),
    actorType: z.enum(["instance", "user", "api_key", "oauth_client", "anonymous"]),
    actorId: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    data: z.unknown().meta({ description: "What changed (never a secret)." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "AuditEvent" });
