import { AsyncLocalStorage } from "node:async_hooks";
import type { UpstreamLane } from "@/lib/connectors/open-upstream";
import { MissingRequiredClientCapabilityError, type ClientCapabilities, type LoggingLevel, type LoggingMessageNotificationParams } from "@modelcontextprotocol/client";

/**
 * What travels with one tool call while it is in flight, between the calling MCP client and
 * the upstream connection (issue 12 "Notifications and requests in flight" and "Client input,
 * across eras"). The protocol layer makes one per tools/call; the connector runtime runs the
 * upstream call inside it.
 *
 * Upstream connections are pooled per (workspace, user, connector), so one connection can
 * carry calls of several sessions of the same user at once. Whatever the upstream sends back
 * during a call — progress, log messages, sampling/elicitation/roots requests — must reach
 * the call it belongs to and no other session. The SDK client reads each POST's answer
 * stream in the async context of the call that sent it, so the flight is kept in an
 * AsyncLocalStorage around the upstream call: a message read from that call's stream finds
 * its flight, and a message on the connection's own GET stream (opened outside any flight,
 * see `outsideFlights`) finds none and is never delivered to anyone.
 */

/** One request for client input, as `inputRequests` entries and server-to-client requests carry it. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

export interface CallFlight {
  /**
   * The origin the calling MCP client reached this instance at (PUBLIC_URL when set): where a
   * connect link it is given must point, so a person signed in there is not sent elsewhere.
   */
  readonly clientOrigin?: string;
  /**
   * The calling client's declared capabilities (initialize, or the request's own envelope on
   * 2026-07-28); undefined when they are unknown (a stateless 2025-era POST never carried an
   * initialize, a call without a client): the upstream is then refused input with -32021 (a
   * stateless caller only once it has answered "Method not found", see `asksUndeclared`) but
   * the call keeps what the tool makes of that.
   */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /**
   * Capabilities unknown, yet the client can be asked (stateless 2025-era serving, whose POST
   * answers on its own stream): it is asked, and a client without a handler for the method
   * answers -32601, which the upstream gets as -32021 (and may fall back).
   */
  readonly asksUndeclared?: boolean;
  /** The least severe log level the caller asked for; undefined: it did not ask, so no log messages are relayed. */
  readonly logLevel: LoggingLevel | undefined;
  /** Relays an upstream progress update (a no-op when the caller gave no progress token). */
  progress(update: { progress: number; total?: number; message?: string }): void;
  /** Relays an upstream `notifications/message`, filtered by the caller's level. */
  log(message: LoggingMessageNotificationParams): void;
  /** Asks the calling client for input and resolves with its answer (the bare result). */
  requestInput(request: InputRequest, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /**
   * A 2026-07-28 caller: a 2026-07-28 upstream's `input_required` goes to it as it is (its keys
   * and requestState untouched), and `retry` is what the caller's retry carried back.
   */
  readonly passInputRequired?: boolean;
  /** The wire the calling client is on; "2025": an initialize session or a stateless 2025-era POST. */
  readonly callerWire?: "2025" | "2026-07-28";
  readonly retry?: { inputResponses?: Record<string, unknown>; requestState?: string };
  /** Set when the upstream asked for input the caller cannot give: the call then fails with this. */
  refused?: MissingRequiredClientCapabilityError;
  /**
   * The configuration versions the request assumed instead of reading them (a stateless
   * 2025-era tools/call, lib/config-version/read-current-version.ts): the audit step inserts
   * the call's row only while each is current, then says so with `versionsConfirmed`.
   */
  readonly assumedVersions?: ReadonlyMap<string, number>;
  versionsConfirmed?(): void;
}

/** The client input an upstream connection can relay: declared to every upstream (relay-to-flights.ts). */
export const RELAYED_CAPABILITIES: ClientCapabilities = { sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: {} };

const flights = new AsyncLocalStorage<CallFlight>();

/** The pooled connection a flight's requests use: a 2025-era caller's own (upstream-pool.ts). */
export function laneOf(flight: CallFlight | undefined): UpstreamLane {
  return flight?.callerWire === "2025" ? "legacy" : "auto";
}

/** Runs `work` with `flight` as the current one (the upstream call of one tool call). */
export function runInFlight<T>(flight: CallFlight | undefined, work: () => Promise<T>): Promise<T> {
  return flight ? flights.run(flight, work) : work();
}

/** The flight the current upstream message belongs to, if any. */
export function currentFlight(): CallFlight | undefined {
  return flights.getStore();
}

/**
 * The flight of a call no MCP client is behind (an admin trying a tool): its capabilities are
 * unknown, so an upstream asking for input gets -32021 and the tool's own answer stands.
 */
export function callerlessFlight(): CallFlight {
  return {
    clientCapabilities: undefined,
    logLevel: undefined,
    progress: () => undefined,
    log: () => undefined,
    requestInput: () => Promise.reject(new Error("no client to ask")),
  };
}

/** Runs `work` outside any flight: a connection opened by one call must not bind its GET stream to that call. */
export function outsideFlights<T>(work: () => T): T {
  return flights.exit(work);
}

/**
 * The capability `request` needs from the calling client that `declared` lacks, or null
 * ("A client that did not declare the capability gets -32021").
 */
export function missingCapability(request: InputRequest, declared: ClientCapabilities): Record<string, unknown> | null {
  const params = request.params ?? {};
  if (request.method === "sampling/createMessage") {
    if (!declared.sampling) return { sampling: {} };
    const usesTools = Array.isArray(params.tools) || params.toolChoice !== undefined;
    return usesTools && !(declared.sampling as { tools?: unknown }).tools ? { sampling: { tools: {} } } : null;
  }
  if (request.method === "elicitation/create") {
    const elicitation = declared.elicitation as { form?: unknown; url?: unknown } | undefined;
    if (!elicitation) return { elicitation: {} };
    // An empty elicitation capability means form mode (the 2025-06-18 meaning).
    if (params.mode === "url") return elicitation.url ? null : { elicitation: { url: {} } };
    return elicitation.form || !elicitation.url ? null : { elicitation: { form: {} } };
  }
  if (request.method === "roots/list") return declared.roots ? null : { roots: {} };
  return null;
}

/**
 * The -32021 error for `missing`. A caller that declared its capabilities and lacks this one
 * has it recorded on the flight, so its call fails with it too; for a caller whose
 * capabilities are unknown only the upstream is told (it may fall back), and the call keeps
 * whatever the tool returns.
 */
export function refuseInput(flight: CallFlight, request: InputRequest, missing: Record<string, unknown>): MissingRequiredClientCapabilityError {
  const error = new MissingRequiredClientCapabilityError(
    { requiredCapabilities: missing },
    `The upstream MCP server asked for ${request.method}, which this client did not declare (missing capability: ${Object.keys(missing).join(", ")})`,
  );
  if (flight.clientCapabilities) flight.refused ??= error;
  return error;
}
