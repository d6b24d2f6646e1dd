import { type CallAnswer, type CallContext, type CallLimits, isHostRequest, type SharedStep } from "@/lib/connectors/pipeline/call-context";
import type { HostResourcesContext } from "@/lib/host-resources/context";
import { rateLimited } from "@/lib/host-resources/errors";
import { setting } from "@/lib/config/settings";
import { consume, getLimiter } from "@/lib/ratelimit/limiter";

/**
 * The limits step of the call pipeline: every limit that applies to one call in flight is
 * decided here, once per kind, and each terminal step enforces what it is given with its own
 * mechanism (so the errors a limit produces are those each path always gave):
 *
 * - tools/call of an `http` tool: HTTP_TOOL_TIMEOUT_MS and HTTP_TOOL_MAX_RESPONSE_BYTES;
 * - tools/call of an `mcp` tool, prompts/get, an upstream's resources/read: UPSTREAM_CALL_TIMEOUT_MS;
 * - a host-resource read or list: the request budget of the (workspace, connector), spent
 *   here, a refusal (-32004) answered from this step — inside the audit step, so a refused
 *   request is audited like any other (its size caps, read.maxSize and
 *   HOST_RESOURCES_LIST_MAX, belong to what the request reads and stay in its terminal step).
 *
 * Limits on an HTTP request rather than a call (MCP_RATE_LIMIT per credential,
 * MCP_MAX_BODY_BYTES) stay at the HTTP edge (lib/mcp/serve/http-edge): they refuse a request
 * before it is known to be a call, lists and initialize included.
 */
export const limitCall: SharedStep = (ctx, next) => {
  if (isHostRequest(ctx)) return spendBudget(ctx.host, next);
  ctx.limits = callLimits(ctx);
  return next();
};

/** The limits of one call the platform makes upstream. */
export function callLimits(ctx: Pick<CallContext, "kind" | "connector">): CallLimits {
  if (ctx.kind === "tools/call" && ctx.connector.type === "http") return { timeoutMs: setting("HTTP_TOOL_TIMEOUT_MS"), maxResponseBytes: setting("HTTP_TOOL_MAX_RESPONSE_BYTES") };
  return { timeoutMs: setting("UPSTREAM_CALL_TIMEOUT_MS") };
}

/** The limits the step decided for this call (a kind composed without the step is a programming error, said at once). */
export function limitsOf(ctx: CallContext): CallLimits {
  if (!ctx.limits) throw new Error(`${ctx.kind} was composed without the limits step (limit-call.ts)`);
  return ctx.limits;
}

async function spendBudget<R>(host: HostResourcesContext, next: () => Promise<CallAnswer<R>>): Promise<CallAnswer<R>> {
  const retryAfterMs = await spendHostResourcesBudget(host);
  if (retryAfterMs === null) return next();
  const refusal = rateLimited(retryAfterMs);
  return { result: undefined as R, outcome: "error", thrown: refusal, errorCode: refusal.code, notSent: true, durationMs: 0 };
}

/**
 * The request budget of HOST_RESOURCES_RATE_LIMIT requests per HOST_RESOURCES_RATE_WINDOW_SEC
 * seconds (default 120 per 60), kept per (workspace, connector): "each server in each
 * workspace has its own request budget". Shared across instances through Redis when
 * REDIS_URL is set. Reads and lists spend the same budget. Null while the budget lasts, else
 * how long until it is back.
 */
async function spendHostResourcesBudget(host: HostResourcesContext): Promise<number | null> {
  const points = setting("HOST_RESOURCES_RATE_LIMIT");
  const durationSec = setting("HOST_RESOURCES_RATE_WINDOW_SEC");
  // The budget is part of the name: one name, one budget (getLimiter refuses a change).
  const limiter = getLimiter(`host-resources:${points}/${durationSec}`, { points, durationSec });
  const result = await consume(limiter, `${host.workspaceId}:${host.connectorId}`);
  return result.ok ? null : result.retryAfterMs;
}
