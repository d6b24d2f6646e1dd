import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { cancelRunningCall, DEMO_IDENTITY } from "@/lib/mcp/serve/connection-state/cancel-running-calls";
import { CALL_SCOPE, flightSignal, serveCallInFlight } from "@/lib/mcp/serve/protocol/serve-tool-call";

/**
 * A stateless call is cancelled by a notifications/cancelled POSTed later, matched by
 * (credential, endpoint, request id). Every /mcp/demo visitor is one identity, so there one visitor's
 * cancel would stop another's call under the same id: demo calls are not cancelled that way.
 */

function requestOf(identity: string, id: number, scope: string): ServerContext {
  return {
    mcpReq: { id, method: "tools/call", signal: new AbortController().signal, requestState: () => undefined, notify: async () => undefined },
    http: { authInfo: { token: "", clientId: identity, scopes: [], extra: { [CALL_SCOPE]: scope } } },
  } as unknown as ServerContext;
}

/** Starts a call that runs until its signal aborts; returns whether it was cancelled, and how to end it. */
function startCall(identity: string, id: number, scope = "server:a") {
  let signal: AbortSignal | undefined;
  let finish = () => undefined as void;
  const served = serveCallInFlight(
    requestOf(identity, id, scope),
    (flight) => {
      signal = flightSignal(flight);
      return new Promise((resolve) => (finish = () => resolve({ content: [] } as never)));
    },
    { clientCapabilities: {}, logLevel: undefined },
  );
  return { cancelled: () => signal!.aborted, finish: async () => (finish(), await served) };
}

describe("cancelRunningCall", () => {
  it("does not cancel the key's call under that id on another endpoint", async () => {
    const call = startCall("key_a", 8, "server:b");
    await cancelRunningCall("key_a", "server:a", 8);
    await cancelRunningCall("key_a", "shared:w1", 8);
    expect(call.cancelled()).toBe(false);
    await cancelRunningCall("key_a", "server:b", 8);
    expect(call.cancelled()).toBe(true);
    await call.finish();
  });

  it("cancels a key's call running under the id it names", async () => {
    const call = startCall("key_a", 7);
    await cancelRunningCall("key_a", "server:a", 7);
    expect(call.cancelled()).toBe(true);
    await call.finish();
  });

  it("does not let one demo visitor cancel another's call under the same id", async () => {
    const call = startCall(DEMO_IDENTITY, 7, "demo");
    await cancelRunningCall(DEMO_IDENTITY, "demo", 7);
    expect(call.cancelled()).toBe(false);
    await call.finish();
  });
});
