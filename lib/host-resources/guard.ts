import { type Caller, INSTANCE_CALLER } from "@/lib/auth/caller";
import { auditCall } from "@/lib/connectors/pipeline/audit-call";
import type { SharedStep } from "@/lib/connectors/pipeline/call-context";
import { countMetrics } from "@/lib/connectors/pipeline/count-metrics";
import type { AuditTarget, HostRequestContext, HostRequestKind } from "@/lib/connectors/pipeline/host-request-context";
import { limitCall } from "@/lib/connectors/pipeline/limit-call";
import { runCall } from "@/lib/connectors/pipeline/run-call";
import type { HostResourcesContext } from "@/lib/host-resources/context";

export type { AuditTarget };

/**
 * A host-resource request through the call pipeline (lib/connectors/pipeline), as every call in
 * flight: the audit step (one row, URI and size or filter and count, never content, committed
 * before the answer goes back), the metrics step, then the limits step (the request budget per
 * workspace and connector, -32004 when spent, audited too). No usage step: usage counts the
 * calls members make through their MCP servers, and a host-resource request is made by an
 * upstream inside one of those calls (already counted), for no MCP server
 * (docs/call-pipeline.md says more).
 */
const HOST_REQUEST: readonly SharedStep[] = [auditCall, countMetrics, limitCall];

/** Who the audit log names: the user the tool runs for, or the instance credential. */
function auditCaller(host: HostResourcesContext): Caller {
  return host.userId ? { kind: "user", userId: host.userId, apiKey: null } : INSTANCE_CALLER;
}

/**
 * Runs one host-resources request: `target` is what its audit row names, filled in by `run` as
 * it learns more (the file id once resolved); `run` throws the seed's errors, which reach the
 * upstream unchanged once the row is written.
 */
export function runHostRequest<T>(host: HostResourcesContext, kind: HostRequestKind, target: AuditTarget, run: () => Promise<T>): Promise<T> {
  const ctx: HostRequestContext = { kind, host, caller: auditCaller(host), target };
  return runCall(ctx, HOST_REQUEST, async () => ({ result: await run(), outcome: "ok" as const }));
}
