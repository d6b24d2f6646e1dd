import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { type FlightUpstream, startV1FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, UPSTREAM_SECRET, v1Client, v2Client } from "@/tests/helpers/flight-scenario";
import { rpcError } from "@/tests/helpers/mcp-clients";
import { type RouteServer, startRouteServer } from "@/tests/helpers/route-server";

/**
 * Requests other than tools/call forwarded to an `mcp` connector's upstream (here prompts/get):
 * the upstream's JSON-RPC error reaches the client with the connector's secret redacted from
 * its data as well as its message, and a failure of that one request (a timeout) leaves the
 * user's pooled upstream connection open.
 */

let app: RouteServer;
let v1: FlightUpstream;
beforeAll(async () => {
  [app, v1] = await Promise.all([startRouteServer(), startV1FlightUpstream()]);
});
afterAll(async () => {
  await upstreamPool().closeAll();
  await Promise.all([app?.close(), v1?.stop()]);
});
afterEach(() => vi.unstubAllEnvs());

const TOKEN = UPSTREAM_SECRET.replace("Bearer ", "");

describe.each([
  ["a v1 client in a session", "true", "v1"],
  ["a v2 client on 2026-07-28", "false", "v2"],
])("prompts/get failing upstream, %s", (_label, stateful, sdk) => {
  it("gets the upstream's code and data with the connector's secret redacted", async () => {
    // Per client: a 2025-era session, or 2026-07-28 with the default stateless serving.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, v1.url);
    const client = sdk === "v1" ? await v1Client(s.url, s.t.member.token) : await v2Client(s.url, s.t.member.token);
    const error = await rpcError(client.getPrompt({ name: "leaky" }));
    await client.close();
    expect(error.code).toBe(-32099);
    expect(error.data).toEqual({ echo: "[redacted]" });
    expect(error.message).toContain("no prompt for [redacted]");
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });
});

it("a prompts/get that times out keeps the user's pooled upstream connection", async () => {
  // In a session: the pooled connection the session keeps is what is under test; calls time out in 0.3 s (default 60 s).
  vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
  const s = await flightScenario(app.origin, v1.url);
  const client = await v1Client(s.url, s.t.member.token);
  await client.callTool({ name: "log", arguments: {} }); // opens the pooled connection
  const opened = v1.initializes().length;
  vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "300");
  const error = await rpcError(client.getPrompt({ name: "stall" }));
  expect(error.code).toBe(-32603);
  vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "60000");
  await client.callTool({ name: "log", arguments: {} });
  await client.close();
  expect(v1.initializes().length).toBe(opened); // no new upstream session was needed
});
