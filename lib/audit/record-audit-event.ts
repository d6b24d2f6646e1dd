import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import { type Caller, describeCaller } from "@/lib/auth/caller";
import type { AuditAction } from "@/lib/audit/actions";
import { currentTraceId } from "@/lib/observability/tracing";

export interface AuditInput {
  orgId: string | null;
  workspaceId?: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  data?: Prisma.InputJsonValue;
}

type AuditClient = Pick<Prisma.TransactionClient, "auditEvent">;

/**
 * Records who changed what. Pass the transaction client so the event commits (or rolls
 * back) together with the change it describes. Returns the event's id. Recording is all it
 * does: a configuration change also bumps its organization's version itself
 * (lib/config-version), in the same transaction.
 */
export async function recordAuditEvent(caller: Caller, input: AuditInput, client: AuditClient = db()): Promise<string> {
  const event = await client.auditEvent.create({ select: { id: true }, data: auditRow(caller, input) });
  return event.id;
}

/**
 * The row of an audit event, whichever way it is written (here in the change's transaction,
 * or group-committed with other calls in flight, lib/audit/write-call-rows.ts): the actor, the
 * way in ("via": the API key or the OAuth client) merged into the data, the typed action, the
 * tenant and the trace.
 */
export function auditRow(caller: Caller, input: AuditInput) {
  const { actorType, actorId } = describeCaller(caller);
  const via = caller.kind === "user" ? viaOf(caller) : null;
  return {
    orgId: input.orgId,
    workspaceId: input.workspaceId ?? null,
    actorType,
    actorId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    data: via ? { ...asObject(input.data), ...via } : input.data,
    traceId: currentTraceId() ?? null,
  };
}

/** What the audit log shows the call came through: an API key, or an OAuth client ("via <name>"). */
export function viaOf(caller: Caller & { kind: "user" }): Record<string, string> | null {
  if (caller.oauthClient) return { oauthClientId: caller.oauthClient.clientId, oauthClientName: caller.oauthClient.name };
  return caller.apiKey ? { apiKeyId: caller.apiKey.id } : null;
}

function asObject(value: Prisma.InputJsonValue | undefined): Record<string, Prisma.InputJsonValue> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, Prisma.InputJsonValue>) : {};
}
