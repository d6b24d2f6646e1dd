import type { LoggingMessageNotificationParams } from "@modelcontextprotocol/client";
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

/** `value` with the secrets redacted from its JSON text; undefined when redaction broke the JSON (dropped rather than leaked). */
export function scrubJson<T>(value: T, headers: Record<string, string>): T | undefined {
  try {
    return JSON.parse(redactSecrets(JSON.stringify(value), headers)) as T;
  } catch {
    return undefined;
  }
}
