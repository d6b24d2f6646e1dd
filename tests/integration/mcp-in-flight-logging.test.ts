import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { type FlightUpstream, startV1FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, UPSTREAM_SECRET, v1Client } from "@/tests/helpers/flight-scenario";
import { type RouteServer, startRouteServer } from "@/tests/helpers/route-server";

/**
 * What a 2025-era upstream (v1 SDK) sends during a call, as 2025-era clients get it: log
 * messages only for a session that set a level (and only that level is forwarded upstream,
 * best effort: an upstream refusing logging/setLevel does not fail the call), and every
 * relayed log message, progress message and input request with the connector's secret redacted.
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
afterEach(() => {
  vi.unstubAllEnvs();
  v1.setLevel = "answer";
});

const TOKEN = UPSTREAM_SECRET.replace("Bearer ", "");
const setLevels = () => v1.messages.filter((m) => m.method === "logging/setLevel").map((m) => m.params?.level);

describe.each([
  ["stateless", "false"],
  ["in a session", "true"],
])("a 2025-era client %s that never sent logging/setLevel", (_label, stateful) => {
  it("gets the upstream's log messages at the upstream's own default, and no level is sent upstream for it", async () => {
    // Both serving modes: stateless (the default) and in a session.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, v1.url);
    const before = setLevels().length;
    const client = await v1Client(s.url, s.t.member.token);
    const lines: { data?: unknown }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void lines.push(n.params));
    const result = await client.callTool({ name: "log", arguments: {} });
    await client.close();
    expect(JSON.stringify(result.content)).toContain("logged");
    expect(lines.map((l) => l.data)).toContain("an error line");
    expect(setLevels().length).toBe(before);
  });
});

describe.each(["refuse", "stall"] as const)("an upstream that answers logging/setLevel with %s", (mode) => {
  it("still runs the session's calls, messages filtered at the session's level, and is not asked again", async () => {
    // In a session: the session's level is what is under test; calls time out in 0.5 s (default 60 s) for the stalled setLevel.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "500");
    v1.setLevel = mode;
    const s = await flightScenario(app.origin, v1.url);
    const before = setLevels().length;
    const client = await v1Client(s.url, s.t.member.token);
    const lines: Array<{ data: unknown }> = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void lines.push(n.params));
    await client.setLoggingLevel("warning");
    const first = await client.callTool({ name: "log", arguments: {} });
    const second = await client.callTool({ name: "log", arguments: {} });
    await client.close();
    expect(first.isError).toBeFalsy();
    expect(JSON.stringify(second.content)).toContain("logged");
    expect(lines.map((l) => l.data)).toEqual(["an error line", "an error line"]);
    expect(setLevels().slice(before)).toEqual(["warning"]);
  });
});

it("log messages, progress messages and input requests relayed from the upstream have the connector's secret redacted", async () => {
  // In a session: the 2025-era client's logging/setLevel and input requests ride on it.
  vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
  const s = await flightScenario(app.origin, v1.url);
  const client = await v1Client(s.url, s.t.member.token, { elicitation: {} });
  const seen: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params));
  client.setRequestHandler(ElicitRequestSchema, (r) => (seen.push(r.params), { action: "accept", content: { name: "ada" } }));
  await client.setLoggingLevel("debug");
  const result = await client.callTool({ name: "leak", arguments: {} }, undefined, { onprogress: (p) => void seen.push(p) });
  await client.close();
  expect(JSON.stringify(result.content)).toContain("ada");
  expect(seen).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ progress: 1, message: "sent [redacted]" }),
      expect.objectContaining({ level: "error", logger: "up [redacted]", data: { auth: "[redacted]" } }),
      expect.objectContaining({ message: "Your name? ([redacted])" }),
    ]),
  );
  expect(JSON.stringify(seen)).not.toContain(TOKEN);
});
