import { type Client, ProtocolError } from "@modelcontextprotocol/client";
import { type CallFlight, currentFlight, type InputRequest, missingCapability, refuseInput, RELAYED_CAPABILITIES } from "@/lib/connectors/runtime/call-flight";

/**
 * Gives an upstream connection the client side of a call in flight: it declares the client
 * input capabilities (so the upstream may ask for input at all) and hands what the upstream
 * sends during a call to that call's flight (lib/connectors/runtime/call-flight.ts):
 * - `sampling/createMessage`, `elicitation/create`, `roots/list` — sent as 2025-era requests,
 *   or embedded in a 2026-07-28 `input_required` result, which the SDK client fulfils through
 *   these same handlers before it retries — go to the calling client, or are refused with
 *   -32021 when it did not declare the capability (or its capabilities are unknown and it
 *   cannot be asked: a call no client is behind). A stateless 2025-era caller is asked by a
 *   2025-era upstream whatever it declared; its "Method not found" becomes the -32021;
 * - `notifications/message` goes to the calling client's request stream.
 * Progress is the SDK's own `onprogress` of the call (lib/connectors/runtime/mcp-tool.ts).
 */

const INPUT_METHODS = ["sampling/createMessage", "elicitation/create", "roots/list"] as const;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;

/** Before connect: declares the input capabilities and registers the relays on `client`. */
export function relayToFlights(client: Client): void {
  client.registerCapabilities(RELAYED_CAPABILITIES);
  for (const method of INPUT_METHODS) {
    client.setRequestHandler(method, async (request, ctx) => {
      const flight = currentFlight();
      // Not read from a call's answer stream (the connection's GET stream): no call to ask for.
      if (!flight) throw new ProtocolError(INVALID_REQUEST, `${method} is only answered while a tool call is in flight on this connection`);
      const input = { method, params: (request.params ?? {}) as Record<string, unknown> };
      // Only a 2025-era upstream asks a caller of unknown capabilities: a 2026-07-28 one was told it declared none.
      const legacyUpstream = (client.getNegotiatedProtocolVersion() ?? "") < "2026-07-28";
      if (!flight.clientCapabilities && flight.asksUndeclared && legacyUpstream) return (await askUndeclared(flight, input, ctx.mcpReq.signal)) as never;
      const missing = missingCapability(input, flight.clientCapabilities ?? {});
      if (missing) throw refuseInput(flight, input, missing);
      // The upstream's cancel of its own request rejects the ask (nothing left waiting on it).
      return (await flight.requestInput(input, ctx.mcpReq.signal)) as never;
    });
  }
  client.setNotificationHandler("notifications/message", (notification) => {
    currentFlight()?.log(notification.params);
  });
}

/**
 * Asks a client whose capabilities are unknown. An SDK client registers a handler only for a
 * capability it declared, so its "Method not found" means "not declared": the upstream gets
 * the -32021 it would have got had the capabilities been known (and may fall back).
 */
async function askUndeclared(flight: CallFlight, input: InputRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
  try {
    return await flight.requestInput(input, signal);
  } catch (e) {
    if (e instanceof ProtocolError && e.code === METHOD_NOT_FOUND) throw refuseInput(flight, input, missingCapability(input, {}) ?? {});
    throw e;
  }
}
