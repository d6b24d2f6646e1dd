import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db/client";
import { type Caller, describeCaller } from "@/lib/auth/caller";

export interface AuditInput {
  orgId: string | null;
  workspaceId?: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  data?: Prisma.InputJsonValue;
  /**
   * Whether the event records a configuration change (default true). Such changes bump the
   * org's config version so every instance rebuilds its MCP snapshots; runtime events (tool
   * calls, file reads) pass false.
   */
  configChange?: boolean;
}

type AuditClient = Pick<Prisma.TransactionClient, "auditEvent" | "organization">;

/**
 * Records who changed what. Pass the transaction client so the event commits (or rolls
 * back) together with the change it describes. Returns the event's id.
 */
export async function recordAuditEvent(caller: Caller, input: AuditInput, client: AuditClient = db()): Promise<string> {
  const { actorType, actorId } = describeCaller(caller);
  const apiKeyId = caller.kind === "user" ? (caller.apiKey?.id ?? null) : null;
  const event = await client.auditEvent.create({
    select: { id: true },
    data: {
      orgId: input.orgId,
      workspaceId: input.workspaceId ?? null,
      actorType,
      actorId,
      action: input.action,
      targetType: input.targetType,
      targetId: input.targetId,
      data: apiKeyId ? { ...(asObject(input.data)), apiKeyId } : input.data,
    },
  });
  if (input.orgId && input.configChange !== false) {
    await client.organization.updateMany({ where: { id: input.orgId }, data: { configVersion: { increment: 1 } } });
  }
  return event.id;
}

function asObject(value: Prisma.InputJsonValue | undefined): Record<string, Prisma.InputJsonValue> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, Prisma.InputJsonValue>) : {};
}
