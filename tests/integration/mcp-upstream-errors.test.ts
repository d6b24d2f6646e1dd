import { callEndingsWritten } from "@/lib/audit/write-call-rows";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import type { FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, UPSTREAM_SECRET, v1Client, v2Client, startFlightSite, stopFlightSite } from "@/tests/helpers/flight-scenario";
import { rpcError } from "@/tests/helpers/mcp-clients";
import type { RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 12 point 5, "Errors stay errors": an upstream JSON-RPC error comes back as a JSON-RPC
 * error with its code and data (the connector's secret scrubbed), on both eras, stateless and
 * in a session, and the call is audited either way (a tool's own isError result staying
 * isError is tests/integration/connector-runtime-mcp.test.ts).
 */

let app: RouteServer;
let v1: FlightUpstream;
let v2: FlightUpstream;
beforeAll(async () => void ({ app, v1, v2 } = await startFlightSite()));
afterAll(() => stopFlightSite({ app, v1, v2 }));
afterEach(() => vi.unstubAllEnvs());

const TOKEN = UPSTREAM_SECRET.replace("Bearer ", "");

describe.each([
  ["2025-era upstream (v1 SDK)", () => v1],
  ["2026-07-28 upstream (v2 SDK)", () => v2],
])("%s answering -32021", (_label, upstream) => {
  it.each([
    ["a v1 client, stateless", "false", "v1"],
    ["a v1 client in a session", "true", "v1"],
    ["a v2 client on 2026-07-28", "false", "v2"],
  ])("%s gets the JSON-RPC error with its code and data, without the secret; the call is audited", async (_c, stateful, sdk) => {
    // Per client: stateless (the default) or in a session, as the table says.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, upstream().url);
    const client = sdk === "v1" ? await v1Client(s.url, s.t.member.token) : await v2Client(s.url, s.t.member.token);
    const error = await rpcError(client.callTool({ name: "rpc_error", arguments: {} }));
    const other = await rpcError(client.callTool({ name: "rpc_error", arguments: { code: -32099 } }));
    await client.close();
    expect(error.code).toBe(-32021);
    expect(error.data).toMatchObject({ requiredCapabilities: { sampling: {} } });
    expect(error.message).toContain("needs sampling (you sent [redacted])");
    expect(other.code).toBe(-32099); // any code, its data kept, scrubbed
    expect(other.data).toMatchObject({ requiredCapabilities: { sampling: {} }, echo: "[redacted]" });
    expect(JSON.stringify([error, other])).not.toContain(TOKEN);
    await callEndingsWritten(); // endings follow the answers
    const events = await db().auditEvent.findMany({ where: { orgId: s.t.org.id, action: "tool.call" } });
    expect(events).toHaveLength(2);
    const codes = events.map((e) => (e.data as { errorCode?: number }).errorCode).sort();
    expect(codes).toEqual([-32099, -32021].sort());
    expect(events.every((e) => (e.data as { outcome?: string }).outcome === "isError")).toBe(true);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(TOKEN);
  });
});

