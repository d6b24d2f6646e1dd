import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { auditCall } from "@/lib/connectors/pipeline/audit-call";
import type { CallContext, CallStep } from "@/lib/connectors/pipeline/call-context";
import { countMetrics } from "@/lib/connectors/pipeline/count-metrics";
import { countUsage } from "@/lib/connectors/pipeline/count-usage";
import { limitCall, limitsOf } from "@/lib/connectors/pipeline/limit-call";
import { recheckAccess } from "@/lib/connectors/pipeline/recheck-access";
import { runCall } from "@/lib/connectors/pipeline/run-call";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { readUpstreamResource } from "@/lib/connectors/runtime/resource-subscriptions";
import type { CallerView, SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";

/**
 * resources/read of an upstream's resource through the call pipeline: the caller's access to
 * the connector is read again (a session's catalog may be older: not found when lost), the
 * `resource.read` event records the URI and, once answered, the size of what was read — never
 * its content, whatever the organization's toolAuditDetail — and the read counts as usage.
 */
const RESOURCE_READ: readonly CallStep[] = [recheckAccess, auditCall, countMetrics, countUsage, limitCall];

export interface ResourceReadInput {
  caller: Caller;
  view: CallerView;
  connector: SnapshotConnector;
  /** The URI in the upstream's own terms. */
  uri: string;
  signal?: AbortSignal;
  flight?: CallFlight;
}

export function readConnectorResource(input: ResourceReadInput): Promise<ReadResourceResult> {
  const ctx: CallContext = {
    kind: "resources/read",
    caller: input.caller,
    view: input.view,
    connector: input.connector,
    names: { exposed: input.uri, upstream: input.uri },
    args: null,
    signal: input.signal,
    flight: input.flight,
  };
  return runCall(ctx, RESOURCE_READ, async (c) => ({
    result: await readUpstreamResource({ caller: c.caller, view: c.view, connector: c.connector, uri: c.names.upstream, signal: c.signal, timeoutMs: limitsOf(c).timeoutMs }, c.flight),
    outcome: "ok" as const,
  }));
}
