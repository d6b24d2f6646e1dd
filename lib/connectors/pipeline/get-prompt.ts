import { ProtocolError, type Client, type GetPromptResult } from "@modelcontextprotocol/client";
import type { Caller } from "@/lib/auth/caller";
import { auditCall } from "@/lib/connectors/pipeline/audit-call";
import type { CallContext, CallStep } from "@/lib/connectors/pipeline/call-context";
import { refuseUnstorableArguments } from "@/lib/connectors/pipeline/check-arguments";
import { countMetrics } from "@/lib/connectors/pipeline/count-metrics";
import { countUsage } from "@/lib/connectors/pipeline/count-usage";
import { limitCall, limitsOf } from "@/lib/connectors/pipeline/limit-call";
import { recheckAccess } from "@/lib/connectors/pipeline/recheck-access";
import { runCall } from "@/lib/connectors/pipeline/run-call";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { sendInFlight } from "@/lib/connectors/runtime/send-in-flight";
import { requestUpstream } from "@/lib/connectors/runtime/upstream-request";
import type { UpstreamConnection, UpstreamPool } from "@/lib/connectors/runtime/upstream-pool";
import type { CallerView, SnapshotPrompt } from "@/lib/mcp/visibility/snapshot-types";

/**
 * prompts/get of an upstream prompt through the call pipeline, audited like a tool call: the
 * `prompt.get` event follows the organization's toolAuditDetail as tool.call does (size and
 * sha-256 of the arguments and the result; the arguments, or both, as the setting says); it is
 * written before the request leaves the platform, and a prompt whose event cannot be written is
 * not fetched. The caller's access is read again first (a session's prompt list may be older).
 *
 * The request runs in the caller's flight, as a tool call does: an upstream asking for client
 * input — 2025-era requests, or a 2026-07-28 `input_required` answer ("InputRequiredResult is
 * universal", not only for tools) — reaches the caller as its era allows
 * (lib/mcp/serve/protocol/serve-tool-call.ts, `serveCallInFlight`).
 */
const PROMPT_GET: readonly CallStep[] = [recheckAccess, refuseUnstorableArguments, auditCall, countMetrics, countUsage, limitCall];

const INVALID_PARAMS = -32602;

export interface PromptGetInput {
  caller: Caller;
  view: CallerView;
  prompt: SnapshotPrompt;
  args: Record<string, string>;
  signal?: AbortSignal;
  /** The calling client's side of the request: client input, its retry. */
  flight?: CallFlight;
}

export function getUpstreamPrompt(input: PromptGetInput, pool?: UpstreamPool): Promise<GetPromptResult> {
  const connector = input.view.connectors.find((c) => c.id === input.prompt.connectorId);
  if (!connector) return Promise.reject(new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${input.prompt.exposedName}`));
  const ctx: CallContext = {
    kind: "prompts/get",
    caller: input.caller,
    view: input.view,
    connector,
    names: { exposed: input.prompt.exposedName, upstream: input.prompt.name },
    args: input.args,
    signal: input.signal,
    flight: input.flight,
  };
  return runCall(ctx, PROMPT_GET, async (c) => ({ result: await fetchPrompt(c, pool), outcome: "ok" as const }));
}

function fetchPrompt(ctx: CallContext, pool?: UpstreamPool): Promise<GetPromptResult> {
  return requestUpstream(
    {
      caller: ctx.caller,
      view: ctx.view,
      connector: ctx.connector,
      signal: ctx.signal,
      flight: ctx.flight,
      timeoutMs: limitsOf(ctx).timeoutMs,
      work: (client, options, connection) => sendPrompt(client, options, connection, ctx),
    },
    pool,
  );
}

/** prompts/get upstream inside the caller's flight (see mcp-tool.ts's sendCall for tools/call). */
function sendPrompt(client: Client, options: { signal?: AbortSignal; timeout: number }, connection: UpstreamConnection, ctx: CallContext): Promise<GetPromptResult> {
  const args = (ctx.args ?? {}) as Record<string, string>;
  return sendInFlight(connection, ctx.flight, (extra) => client.getPrompt({ name: ctx.names.upstream, arguments: args, ...extra.params }, { ...options, ...extra.options }));
}
