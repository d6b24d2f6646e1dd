import { randomUUID } from "node:crypto";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import { failed, type RuntimeAnswer } from "@/lib/connectors/runtime/outcome";
import { UpstreamRpcError } from "@/lib/connectors/runtime/upstream-rpc-error";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { UpstreamCredential } from "@/lib/connectors/upstream-auth/credential";

/**
 * What a caller with no usable connection gets instead of an upstream call (issue 24 point 4),
 * in this order: a 2025-era client that declared URL elicitation gets JSON-RPC -32042
 * (URLElicitationRequiredError) whose elicitation opens the connect link; a 2026-07-28 client
 * that declared it gets the same elicitation as an input request; anyone else a tool result
 * with `isError` naming the connector and the link. The instance credential is told to
 * connect as a person.
 */

export const URL_ELICITATION_REQUIRED = -32042;

type Missing = Extract<UpstreamCredential, { kind: "missing" }>;

export function connectMessage(missing: Missing): string {
  if (missing.reason === "instance") {
    return `The connector "${missing.connectorName}" acts upstream as a person: the instance credential has no connection of its own. Call as a person (their API key or an OAuth token) who has connected their account.`;
  }
  if (missing.shared) return sharedMessage(missing);
  const again = missing.stepUpScope
    ? `The upstream needs wider access than your connection grants (scope "${missing.stepUpScope}")${missing.stillConnected ? " for this request; your other requests still work" : ""}: connect again`
    : missing.reason === "needs_reconnect"
      ? "Your connection to it has ended (the upstream refused to renew it): connect again"
      : "You have not connected your account yet: connect";
  const where = missing.connectUrl ? `at ${missing.connectUrl}` : "from Connections in Switchboard";
  return `The connector "${missing.connectorName}" acts upstream with your own account. ${again} ${where} — then retry.`;
}

/** A shared connector: its one account is connected by an owner or admin; only they get the link. */
function sharedMessage(missing: Missing): string {
  const state = missing.stepUpScope
    ? `that account needs wider access${missing.stillConnected ? " for this request" : ""} (scope "${missing.stepUpScope}")${missing.stillConnected ? "; its other requests still work" : ""}`
    : missing.reason === "needs_reconnect"
      ? "that account's connection has ended"
      : "that account is not connected yet";
  const again = missing.reason === "not_connected" ? "" : " again";
  const who = missing.connectUrl
    ? `As an owner or admin, connect it${again} at ${missing.connectUrl} — then retry.`
    : `An owner or admin of the organization must connect it${again} in Switchboard; retry after that.`;
  return `The connector "${missing.connectorName}" acts upstream with one shared account: ${state}. ${who}`;
}

/**
 * The missing connection as this caller is told of it: its connect link on the origin the
 * MCP client used (localhost or 127.0.0.1 without PUBLIC_URL), where the person signs in.
 */
function asSeenBy(missing: Missing, flight: CallFlight | undefined): Missing {
  if (!missing.connectUrl || !flight?.clientOrigin) return missing;
  const link = new URL(missing.connectUrl);
  return { ...missing, connectUrl: `${flight.clientOrigin}${link.pathname}${link.search}` };
}

function urlElicitation(missing: Missing) {
  return { mode: "url" as const, elicitationId: randomUUID(), url: missing.connectUrl!, message: connectMessage(missing) };
}

/** The answer of a tool call that was not sent. */
export function connectAnswer(given: Missing, flight: CallFlight | undefined): RuntimeAnswer {
  const missing = asSeenBy(given, flight);
  const answerable = missing.reason !== "instance" && missing.connectUrl !== null && flight?.clientCapabilities?.elicitation?.url !== undefined;
  if (answerable && flight?.callerWire === "2025") {
    const elicitation = urlElicitation(missing);
    return { ...failed(elicitation.message), notSent: true, rpcError: new UpstreamRpcError(URL_ELICITATION_REQUIRED, "URL elicitation required", { elicitations: [elicitation] }) };
  }
  if (answerable && flight?.passInputRequired) {
    const result = { resultType: "input_required", inputRequests: { [`connect-${missing.connectorId}`]: { method: "elicitation/create", params: urlElicitation(missing) } } };
    return { result: result as unknown as ToolCallResult, outcome: "ok", notSent: true };
  }
  return { ...failed(connectMessage(missing)), notSent: true };
}

/** The JSON-RPC error of a prompts/get, resources/read or completion that was not sent. */
export function connectRpcError(given: Missing, flight?: CallFlight): { code: number; message: string; data?: unknown } {
  const missing = asSeenBy(given, flight);
  if (missing.reason !== "instance" && missing.connectUrl && flight?.clientCapabilities?.elicitation?.url !== undefined) {
    return { code: URL_ELICITATION_REQUIRED, message: "URL elicitation required", data: { elicitations: [urlElicitation(missing)] } };
  }
  return { code: -32603, message: connectMessage(missing) };
}
