import { CLIENT_CAPABILITIES_META_KEY, ProtocolError } from "@modelcontextprotocol/client";
import { type CallFlight, callerlessFlight, runInFlight } from "@/lib/connectors/runtime/call-flight";
import { scrubFlight, scrubResult } from "@/lib/connectors/runtime/scrub-flight";
import type { UpstreamConnection } from "@/lib/connectors/runtime/upstream-pool";

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** What a request sent in a flight adds to its own params, and to its request options. */
export interface FlightParams {
  params: { _meta?: Record<string, unknown>; inputResponses?: Record<string, unknown>; requestState?: string };
  options: { allowInputRequired?: true };
}

/**
 * One upstream request other than tools/call (mcp-tool.ts's sendCall) — prompts/get,
 * resources/read — sent inside the caller's flight, since "InputRequiredResult is universal":
 * the upstream's requests for client input reach the caller as its era allows
 * (lib/mcp/serve/protocol/serve-tool-call.ts), the caller's capabilities go with it to a 2026-07-28
 * upstream, and 2026-07-28 on both sides the upstream's `input_required` goes to the caller as
 * it is (its input requests scrubbed, its requestState untouched: the upstream checks it) and
 * the caller's retry goes back with the answers. The result is scrubbed of the connection's secrets.
 */
export async function sendInFlight<T>(connection: UpstreamConnection, flight: CallFlight | undefined, send: (extra: FlightParams) => Promise<T>): Promise<T> {
  const modern = (connection.protocolVersion ?? "") >= "2026-07-28";
  const passThrough = !!flight?.passInputRequired && modern;
  // A requestState not ours (lib/mcp/serve/protocol/serve-tool-call.ts) can only be a 2026-07-28 upstream's.
  if (flight?.retry?.requestState !== undefined && !passThrough) throw new ProtocolError(INVALID_PARAMS, "Invalid or expired requestState", { reason: "invalid_request_state" });
  const retry = passThrough ? flight?.retry : undefined;
  // Unknown capabilities (no caller, a stateless 2025-era one) are declared as none, so the upstream may fall back.
  const declared = flight?.clientCapabilities ?? {};
  const params = {
    ...(modern ? { _meta: { [CLIENT_CAPABILITIES_META_KEY]: declared } } : {}),
    ...(retry?.inputResponses ? { inputResponses: retry.inputResponses } : {}),
    ...(retry?.requestState !== undefined ? { requestState: retry.requestState } : {}),
  };
  const relay = scrubFlight(flight ?? callerlessFlight(), connection.headers);
  const result = await runInFlight(relay, () => send({ params, options: passThrough ? { allowInputRequired: true } : {} })).catch((e: unknown) => {
    throw relay.refused ?? e;
  });
  // The upstream asked for input this caller cannot give: -32021, whatever the upstream made of the refusal.
  if (relay.refused) throw relay.refused;
  return scrubResult(result, connection.headers, () => {
    throw new ProtocolError(INTERNAL_ERROR, "The upstream MCP server's answer held a secret of this connection and was withheld.");
  });
}
