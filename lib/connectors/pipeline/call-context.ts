import type { Caller } from "@/lib/auth/caller";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import type { CallOutcome } from "@/lib/connectors/runtime/outcome";
import type { HostRequestContext } from "@/lib/connectors/pipeline/host-request-context";
import type { CallerView, SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";

/**
 * One call in flight through an MCP endpoint — tools/call, prompts/get, an upstream's
 * resources/read — as the call pipeline (lib/connectors/pipeline/run-call.ts) carries it from
 * step to step. Each cross-cutting rule (access recheck, argument checks, audit, usage,
 * metrics, limits) is one step reading and filling this object, in the spirit of the MCP SDK's
 * middleware: a step may refuse (throw) before the upstream is called, or wrap the rest of
 * the chain and see its answer.
 *
 * Later steps slot in without touching the others: a per-caller upstream credential (issue 24)
 * fills `credential` before the terminal step sends; a per-server tool name (issue 26) sets
 * `names.exposed` apart from `names.upstream`, and the audit records both.
 */

export type CallKind = "tools/call" | "prompts/get" | "resources/read";

/** What each call's limits are, decided once per kind by the limits step (limit-call.ts) and enforced by the terminal step. */
export interface CallLimits {
  /** How long the upstream has to answer (an http tool's request, an upstream MCP request). */
  timeoutMs: number;
  /** The most bytes of an http tool's response that are read. */
  maxResponseBytes?: number;
}

export interface CallContext {
  kind: CallKind;
  caller: Caller;
  /** The caller's view of the endpoint's server; the access recheck replaces it with the current one. */
  view: CallerView;
  /** The connector the call goes to (as `view` has it). */
  connector: SnapshotConnector;
  /**
   * What the caller asked for and what the connector calls it: a tool's or prompt's exposed
   * and upstream names, a resource's URI on both sides (the URI is not renamed).
   */
  names: { exposed: string; upstream: string };
  /** tools/call: the tool (its input schema, its kind of connector). */
  tool?: SnapshotTool;
  /** The arguments as the caller sent them (none for a resource read). */
  args: Record<string, unknown> | null;
  signal?: AbortSignal;
  /** The calling client's side of the call: progress, log messages, client input. */
  flight?: CallFlight;
  /** Reserved for the per-caller upstream credential step (issue 24): what the terminal step sends with. */
  credential?: unknown;
  /** The audit event of this call, once its start row is committed. */
  auditEventId?: string;
  /** The call's limits, filled by the limits step before the terminal step. */
  limits?: CallLimits;
}

/** Any request the pipeline runs: a call the platform makes upstream, or a host-resource request an upstream makes of it. */
export type PipelineContext = CallContext | HostRequestContext;

/** How a call ended, as every step after the terminal one sees it. */
export interface CallAnswer<R> {
  result: R;
  outcome: CallOutcome;
  /** Time the terminal step took (the upstream's part of the call), rounded to ms. */
  durationMs: number;
  /** An error to throw to the caller once every step has seen the answer (a JSON-RPC error, say). */
  thrown?: unknown;
  /** The JSON-RPC error code the caller receives, when it receives one. */
  errorCode?: number;
  /** Refused before anything was sent upstream: says nothing of the upstream's health. */
  notSent?: boolean;
  /** A short text of what went wrong, for usage's last error (no secrets: the terminal step scrubbed them). */
  errorMessage?: string;
}

/** A step of the chain: work before `next()`, after it, or instead of it (a refusal). */
export type Step<C> = <R>(ctx: C, next: () => Promise<CallAnswer<R>>) => Promise<CallAnswer<R>>;

/** A step of the calls the platform makes upstream. */
export type CallStep = Step<CallContext>;

/** A step every kind composes (audit, metrics, limits): it tells the two families apart by `kind`. */
export type SharedStep = Step<PipelineContext>;

export function isHostRequest(ctx: PipelineContext): ctx is HostRequestContext {
  return ctx.kind === "host_resources/read" || ctx.kind === "host_resources/list";
}
