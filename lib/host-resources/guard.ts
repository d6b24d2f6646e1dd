import type { Prisma } from "@/lib/generated/prisma/client";
import { type Caller, INSTANCE_CALLER } from "@/lib/auth/caller";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";
import type { HostResourcesContext } from "@/lib/host-resources/context";
import { isHostResourcesError, rateLimited } from "@/lib/host-resources/errors";
import { setting } from "@/lib/config/settings";

/**
 * The request budget of HOST_RESOURCES_RATE_LIMIT requests per HOST_RESOURCES_RATE_WINDOW_SEC
 * seconds (default 120 per 60), kept per (workspace, connector): "each server in each
 * workspace has its own request budget". Shared across instances through Redis when
 * REDIS_URL is set. Reads and lists spend the same budget.
 */
export async function spendHostResourcesBudget(ctx: HostResourcesContext): Promise<void> {
  const points = setting("HOST_RESOURCES_RATE_LIMIT");
  const durationSec = setting("HOST_RESOURCES_RATE_WINDOW_SEC");
  // The budget is part of the name: one name, one budget (getLimiter refuses a change).
  const limiter = getLimiter(`host-resources:${points}/${durationSec}`, { points, durationSec });
  const result = await consume(limiter, `${ctx.workspaceId}:${ctx.connectorId}`);
  if (!result.ok) throw rateLimited(result.retryAfterMs);
}

/** Who the audit log names: the user the tool runs for, or the instance credential. */
function auditCaller(ctx: HostResourcesContext): Caller {
  return ctx.userId ? { kind: "user", userId: ctx.userId, apiKey: null } : INSTANCE_CALLER;
}

export interface AuditTarget {
  targetType: "file" | "workspace";
  targetId: string | null;
  data: Record<string, Prisma.InputJsonValue | null>;
}

/**
 * Runs one host-resources request and audits it whatever happens: who (the user), which
 * connector, which file or filter, and the outcome (`ok`, or the JSON-RPC error code).
 * `target` is filled in by `run` as it learns more (the file id once resolved).
 */
export async function audited<T>(
  ctx: HostResourcesContext,
  action: "host_resources.read" | "host_resources.list",
  target: AuditTarget,
  run: () => Promise<T>,
): Promise<T> {
  const record = (outcome: Record<string, Prisma.InputJsonValue>) =>
    recordAuditEvent(auditCaller(ctx), {
      orgId: ctx.orgId,
      workspaceId: ctx.workspaceId,
      action,
      targetType: target.targetType,
      targetId: target.targetId,
      data: { connectorId: ctx.connectorId, ...target.data, ...outcome } as Prisma.InputJsonValue,
    });
  try {
    const result = await run();
    await record({ outcome: "ok" });
    return result;
  } catch (e) {
    const code = isHostResourcesError(e) ? e.code : -32603;
    await record({ outcome: "error", code });
    throw e;
  }
}
