import { randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  type ClientCapabilities,
  type InputRequiredResult,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type RequestId,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CallFlight, InputRequest } from "@/lib/connectors/runtime/call-flight";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import { setting } from "@/lib/config/settings";
import { publicOrigin } from "@/lib/servers/server-url";
import { trackRunningCall } from "@/lib/mcp/serve/connection-state/cancel-running-calls";

/**
 * One tools/call as the protocol layer serves it, with its flight (issue 12 points 3–4):
 * progress and log messages go to this request's stream; client input is asked for as the
 * caller's era allows — a 2025-era caller gets server-to-client requests related to this
 * request (in a session through the SDK, stateless through `askClient`); a 2026-07-28 client gets an `input_required` result, and the call (the upstream's
 * request included) waits, parked under the `requestState` it was given, for the retry that
 * carries the answers. Parked calls live in this process: a retry reaching another instance
 * finds none and is refused like an expired state.
 */

const LEVELS: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const INVALID_PARAMS = -32602;
/** The prefix of the requestState naming a parked call. */
const PARKED = "sbcall_";

interface Ask {
  request: InputRequest;
  resolve(answer: Record<string, unknown>): void;
  reject(e: unknown): void;
}

type Settled = { result: unknown } | { error: unknown };

/**
 * Sends a server-to-client request related to the request `relatedRequestId` and resolves with
 * the client's answer: stateless 2025-era serving's own route (lib/mcp/serve/ask-stateless-client.ts).
 */
export type AskClient = (relatedRequestId: RequestId, request: InputRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** What a 2025-era call knows of its client: from the session, or nothing on a stateless POST. */
export interface LegacyCaller {
  clientCapabilities: ClientCapabilities | undefined;
  logLevel: LoggingLevel | undefined;
  askClient?: AskClient;
  /** The versions a stateless call assumed, and what to call once its audit row confirmed them (CallFlight). */
  versions?: { assumed: ReadonlyMap<string, number>; confirmed(): void };
}

interface Parked {
  flight: ServedFlight;
  settled: Promise<Settled>;
  identity: string | undefined;
  /** The endpoint it was made on (as a cancellation's): a retry sent to another endpoint is not its. */
  scope: string | undefined;
  /** tools/call or prompts/get: a retry resumes only a parked request of its own method. */
  method: string;
  expiry: NodeJS.Timeout;
}

const globalForParked = globalThis as unknown as { switchboardParkedCalls?: Map<string, Parked>; switchboardOpenAsks?: Set<Ask> };
const parked = (globalForParked.switchboardParkedCalls ??= new Map());
/** Every ask not yet answered or rejected, across calls: what a held call still keeps alive. */
const openAsks = (globalForParked.switchboardOpenAsks ??= new Set());

/** Held 2026-07-28 calls and their unanswered input requests (both empty once every call is over). */
export function heldCalls(): { parked: number; asks: number } {
  return { parked: parked.size, asks: openAsks.size };
}

class ServedFlight implements CallFlight {
  readonly controller = new AbortController();
  readonly asks = new Map<string, Ask>();
  private asked?: () => void;
  private count = 0;
  private unfollow?: () => void;

  readonly passInputRequired: boolean;
  readonly callerWire: "2025" | "2026-07-28";
  readonly asksUndeclared: boolean;
  readonly assumedVersions?: ReadonlyMap<string, number>;
  readonly versionsConfirmed?: () => void;
  retry?: { inputResponses?: Record<string, unknown>; requestState?: string };

  constructor(
    public ctx: ServerContext,
    readonly modern: boolean,
    readonly clientCapabilities: ClientCapabilities | undefined,
    public logLevel: LoggingLevel | undefined,
    private readonly askClient?: AskClient,
    versions?: LegacyCaller["versions"],
  ) {
    if (versions) {
      this.assumedVersions = versions.assumed;
      this.versionsConfirmed = versions.confirmed;
    }
    this.passInputRequired = modern;
    this.callerWire = modern ? "2026-07-28" : "2025";
    this.asksUndeclared = !modern && !!askClient && !clientCapabilities;
  }

  /** Worked out only when asked (a connect link): most calls never need it. */
  get clientOrigin(): string | undefined {
    const req = this.ctx.http?.req;
    return req ? (publicOrigin(req.headers, req.url) ?? undefined) : undefined;
  }

  /**
   * The request now being served: its cancellation (notifications/cancelled) or its client
   * going away cancels the call; its stream carries what the call sends.
   */
  follow(ctx: ServerContext): void {
    this.ctx = ctx;
    const signals = [ctx.mcpReq.signal, ctx.http?.req?.signal].filter((s): s is AbortSignal => !!s);
    const abort = () => this.controller.abort(new Error("the client cancelled the call"));
    if (signals.some((s) => s.aborted)) abort();
    for (const s of signals) s.addEventListener("abort", abort, { once: true });
    this.unfollow = () => signals.forEach((s) => s.removeEventListener("abort", abort));
  }

  /** Parked: the request that asked is answered, its end must not cancel the call. */
  park(): void {
    this.unfollow?.();
  }

  progress(update: { progress: number; total?: number; message?: string }): void {
    const progressToken = this.ctx.mcpReq._meta?.progressToken;
    if (progressToken === undefined) return;
    void this.ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => undefined);
  }

  log(message: LoggingMessageNotificationParams): void {
    // On 2026-07-28 a request without a log level asks for no log messages; on the 2025 era
    // only a session that sent logging/setLevel gets them.
    // On 2026-07-28 a request without a log level asks for no log messages. A 2025-era client
    // that set no level gets what the upstream sends at its own default (the SDK's default of
    // relaying everything) — but no level is forwarded upstream for it (mcp-tool.ts).
    if (!this.logLevel && this.modern) return;
    if (this.logLevel && LEVELS.indexOf(message.level) < LEVELS.indexOf(this.logLevel)) return;
    void this.ctx.mcpReq.notify({ method: "notifications/message", params: message }).catch(() => undefined);
  }

  /**
   * `signal`: the upstream's own cancellation of its request (the relay handler's). A held
   * call that expires or is aborted rejects every ask it still has, so the upstream's
   * request is answered (with an error) and nothing of the call stays behind.
   */
  async requestInput(request: InputRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const signals = [this.controller.signal, signal].filter((s): s is AbortSignal => !!s);
    if (this.askClient && !this.modern) return this.askClient(this.ctx.mcpReq.id, request, AbortSignal.any(signals));
    if (!this.modern) return (await this.ctx.mcpReq.send(request as never, { signal: AbortSignal.any(signals) })) as Record<string, unknown>;
    const gone = signals.find((s) => s.aborted);
    if (gone) throw gone.reason;
    const key = `input-${++this.count}`;
    return new Promise((resolve, reject) => {
      const settle = () => {
        this.asks.delete(key);
        openAsks.delete(ask);
        signals.forEach((s) => s.removeEventListener("abort", onAbort));
      };
      const onAbort = (event: Event) => {
        settle();
        reject((event.target as AbortSignal).reason);
      };
      const ask: Ask = {
        request,
        resolve: (answer) => (settle(), resolve(answer)),
        reject: (e) => (settle(), reject(e)),
      };
      for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
      this.asks.set(key, ask);
      openAsks.add(ask);
      this.asked?.();
    });
  }

  /** Resolves once the call has asked for input (after the asks made in the same turn are gathered). */
  whenAsked(): Promise<void> {
    if (this.asks.size > 0) return Promise.resolve();
    return new Promise((resolve) => (this.asked = () => setImmediate(resolve)));
  }
}

/**
 * Serves one call in flight — tools/call, prompts/get, an upstream's resources/read — whose
 * upstream may ask for client input ("InputRequiredResult is universal"): a new request, or
 * the retry of a parked one. What the call itself does (audit, usage, the upstream request) is
 * the call pipeline's (lib/connectors/pipeline); this is its protocol side.
 */
export async function serveCallInFlight<T = ToolCallResult>(
  ctx: ServerContext,
  start: (flight: ServedFlight) => Promise<T> | null,
  legacy: LegacyCaller,
): Promise<T | InputRequiredResult | null> {
  const resumed = resume(ctx);
  if (resumed) return next(resumed.flight, resumed.settled, ctx) as Promise<T | InputRequiredResult>;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = !!envelope;
  const flight = modern
    ? new ServedFlight(ctx, true, (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities, envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined)
    : // Stateless serving saw no initialize (capabilities unknown) and no logging/setLevel.
      new ServedFlight(ctx, false, legacy.clientCapabilities, legacy.logLevel, legacy.askClient, legacy.versions);
  flight.follow(ctx);
  if (modern && (ctx.mcpReq.inputResponses || ctx.mcpReq.requestState() !== undefined)) {
    const requestState = ctx.mcpReq.requestState();
    flight.retry = { inputResponses: ctx.mcpReq.inputResponses, requestState: typeof requestState === "string" ? requestState : undefined };
  }
  const pending = start(flight);
  if (!pending) return null;
  const untrack = trackRunningCall(identityOf(ctx), scopeOf(ctx), ctx.mcpReq.id, flight.controller);
  const settled = pending.then((result) => ({ result }), (error: unknown) => ({ error }));
  void settled.then(untrack);
  return next(flight, settled, ctx) as Promise<T | InputRequiredResult>;
}

/** The signal a call of `flight` runs under (it outlives the request that started it when parked). */
export function flightSignal(flight: CallFlight): AbortSignal | undefined {
  return flight instanceof ServedFlight ? flight.controller.signal : undefined;
}

async function next(flight: ServedFlight, settled: Promise<Settled>, ctx: ServerContext): Promise<unknown> {
  const outcome = await Promise.race([settled, flight.modern ? flight.whenAsked().then(() => null) : new Promise<never>(() => undefined)]);
  if (outcome) {
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  }
  flight.park();
  const requestState = `${PARKED}${randomUUID()}`;
  const expiry = setTimeout(() => {
    parked.delete(requestState);
    flight.controller.abort(new Error("the client did not answer the input request in time"));
  }, setting("UPSTREAM_CALL_TIMEOUT_MS"));
  expiry.unref();
  parked.set(requestState, { flight, settled, identity: identityOf(ctx), scope: scopeOf(ctx), method: ctx.mcpReq.method, expiry });
  const inputRequests = Object.fromEntries([...flight.asks].map(([key, ask]) => [key, ask.request]));
  return inputRequired({ inputRequests: inputRequests as never, requestState });
}

/** The parked call a retry names, its answers delivered; null for a fresh call. */
function resume(ctx: ServerContext): Parked | null {
  const state = ctx.mcpReq.requestState();
  // Another state is a 2026-07-28 upstream's own, passed through: the retry goes to it (it checks it).
  if (typeof state !== "string" || !state.startsWith(PARKED)) return null;
  const found = parked.get(state);
  // Unknown, expired, another credential's or another endpoint's (/mcp/A's call retried on
  // /mcp/B): the SDK's own answer to a state it cannot verify.
  if (!found || found.identity !== identityOf(ctx) || found.scope !== scopeOf(ctx) || found.method !== ctx.mcpReq.method) throw new ProtocolError(INVALID_PARAMS, "Invalid or expired requestState", { reason: "invalid_request_state" });
  parked.delete(state);
  clearTimeout(found.expiry);
  found.flight.follow(ctx);
  const responses = ctx.mcpReq.inputResponses ?? {};
  for (const [key, ask] of [...found.flight.asks]) {
    const answer = responses[key];
    if (answer === undefined || answer === null || typeof answer !== "object") continue; // asked again below
    ask.resolve(answer as Record<string, unknown>);
  }
  return found;
}

function identityOf(ctx: ServerContext): string | undefined {
  return ctx.http?.authInfo?.clientId;
}

/** The auth info key carrying a stateless call's endpoint (lib/mcp/serve/cancel-running-calls.ts). */
export const CALL_SCOPE = "switchboard.callScope";

function scopeOf(ctx: ServerContext): string | undefined {
  const scope = ctx.http?.authInfo?.extra?.[CALL_SCOPE];
  return typeof scope === "string" ? scope : undefined;
}

export type { ServedFlight };
