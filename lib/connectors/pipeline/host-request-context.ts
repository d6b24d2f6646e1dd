import type { Caller } from "@/lib/auth/caller";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { HostResourcesContext } from "@/lib/host-resources/context";

/**
 * One host-resource request (`ai.nimblebrain/resources/read` or `/list`, an upstream reading
 * the caller's files back over our outbound connection) as the call pipeline carries it. It is
 * the other direction of a call in flight — the upstream asks, the platform answers — so it has
 * no MCP server, view or snapshot connector: only the connection's owner (workspace, user,
 * connector), whom the audit names, and what the audit row says of its target.
 */

export type HostRequestKind = "host_resources/read" | "host_resources/list";

/** What the audit row names; the terminal step fills it as it learns more (the file once resolved). */
export interface AuditTarget {
  targetType: "file" | "workspace";
  targetId: string | null;
  data: Record<string, Prisma.InputJsonValue | null>;
}

export interface HostRequestContext {
  kind: HostRequestKind;
  /** Whom the request is answered for (seed 000 "Scope"). */
  host: HostResourcesContext;
  /** Who the audit log names: the user the tool runs for, or the instance credential. */
  caller: Caller;
  target: AuditTarget;
  /** The audit event of this request, once written. */
  auditEventId?: string;
}
