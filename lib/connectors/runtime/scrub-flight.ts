import { isInputRequiredResult, type LoggingMessageNotificationParams } from "@modelcontextprotocol/client";
import type { CallFlight, InputRequest } from "@/lib/connectors/runtime/call-flight";
import { redactSecrets } from "@/lib/connectors/secret-headers";

/**
 * The flight as one upstream connection sees it: what the upstream relays to the calling
 * client during the call — log messages (data and logger), progress messages, the params of
 * its input requests — has the connection's secret header values redacted first, as its
 * errors do (an upstream may quote the credential it was sent anywhere).
 */
export function scrubFlight(flight: CallFlight, headers: Record<string, string>): CallFlight {
  if (Object.keys(headers).length === 0) return flight;
  return {
    get clientCapabilities() {
      return flight.clientCapabilities;
    },
    get asksUndeclared() {
      return flight.asksUndeclared;
    },
    get logLevel() {
      return flight.logLevel;
    },
    get passInputRequired() {
      return flight.passInputRequired;
    },
    get callerWire() {
      return flight.callerWire;
    },
    get retry() {
      return flight.retry;
    },
    // Recorded on the caller's own flight, which decides the call's answer.
    get refused() {
      return flight.refused;
    },
    set refused(error) {
      flight.refused = error;
    },
    progress: (update) => flight.progress(update.message === undefined ? update : { ...update, message: redactSecrets(update.message, headers) }),
    log: (message: LoggingMessageNotificationParams) => {
      const scrubbed = scrubJson(message, headers);
      if (scrubbed) flight.log(scrubbed);
    },
    requestInput: (request: InputRequest, signal?: AbortSignal) => flight.requestInput({ method: request.method, params: scrubJson(request.params ?? {}, headers) ?? {} }, signal),
  };
}

/**
 * `value` with the secrets redacted from its JSON text (`value` itself when none was in it);
 * undefined when redaction broke the JSON (dropped rather than leaked).
 */
export function scrubJson<T>(value: T, headers: Record<string, string>): T | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const scrubbed = redactSecrets(text, headers);
  if (scrubbed === text) return value;
  try {
    return JSON.parse(scrubbed) as T;
  } catch {
    return undefined;
  }
}

/**
 * An upstream's result (tools/call, prompts/get, resources/read) without the connection's
 * secrets: an upstream may quote what it was sent in a result as in an error, and the result goes
 * to the caller and, at the organization's audit detail, into the audit log. A 2026-07-28
 * upstream's input_required passed through has its input requests scrubbed and its requestState
 * untouched (the upstream checks it). `withheld`: what to answer when redaction broke the JSON.
 */
export function scrubResult<T>(result: T, headers: Record<string, string>, withheld: () => T): T {
  if (Object.keys(headers).length === 0) return result;
  if (!isInputRequiredResult(result)) return scrubJson(result, headers) ?? withheld();
  const inputRequests = (result as { inputRequests?: unknown }).inputRequests;
  return { ...result, inputRequests: scrubJson(inputRequests, headers) ?? {} } as T;
}
