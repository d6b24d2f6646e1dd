import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, v1Client, v2Client, startFlightSite, stopFlightSite } from "@/tests/helpers/flight-scenario";
import type { RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 12 point 3, "Notifications and requests in flight": progress relayed with the
 * client's own token while the call runs, log messages relayed at the level the client set,
 * a cancelled call cancelled upstream too — v1 and v2 clients, 2025-era (stateless and in a
 * session) and 2026-07-28, against a 2025-era (v1 SDK) and a 2026-07-28 (v2 SDK) upstream.
 */

let app: RouteServer;
let v1: FlightUpstream;
let v2: FlightUpstream;
beforeAll(async () => void ({ app, v1, v2 } = await startFlightSite()));
afterAll(() => stopFlightSite({ app, v1, v2 }));
afterEach(() => vi.unstubAllEnvs());

const UPSTREAMS = [
  ["a 2025-era upstream", () => v1],
  ["a 2026-07-28 upstream", () => v2],
] as const;
const CLIENTS = [
  ["a v1 client, stateless", "v1", "false"],
  ["a v1 client in a session", "v1", "true"],
  ["a v2 client on 2026-07-28", "v2", "false"],
] as const;

const until = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
};

describe.each(UPSTREAMS)("through %s", (upstreamName, upstream) => {
  it.each(CLIENTS)("%s sees the upstream's progress while the call runs, with its own progress token", async (_c, sdk, stateful) => {
    // Per client: a 2025-era client in a session or stateless (the default), as CLIENTS says.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, upstream().url);
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const onprogress = (p: { progress: number; total?: number; message?: string }) => void seen.push(p);
    if (sdk === "v1") {
      const client = await v1Client(s.url, s.t.member.token);
      const result = await client.callTool({ name: "progress", arguments: {} }, undefined, { onprogress });
      await client.close();
      expect(JSON.stringify(result.content)).toContain("done");
    } else {
      const client = await v2Client(s.url, s.t.member.token);
      const result = await client.callTool({ name: "progress", arguments: {} }, { onprogress });
      await client.close();
      expect(JSON.stringify(result.content)).toContain("done");
    }
    expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
    // The upstream was given a token of ours, not the client's.
    const sent = upstream().messages.filter((m) => m.method === "tools/call" && m.params?.name === "progress").at(-1);
    expect(sent?.params?._meta?.progressToken).toBeDefined();
  });

  it.each(CLIENTS)("%s gets the upstream's log messages at the level it asked for", async (_c, sdk, stateful) => {
    // Per client: a 2025-era client in a session or stateless (the default), as CLIENTS says.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, upstream().url);
    const lines: Array<{ level: string; data: unknown }> = [];
    if (sdk === "v1") {
      const client = await v1Client(s.url, s.t.member.token);
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void lines.push(n.params));
      if (stateful === "true") await client.setLoggingLevel("warning");
      await client.callTool({ name: "log", arguments: {} });
      await client.close();
      // A session's level filters (and was forwarded). Without a session no level was set, and none
      // is forwarded: a 2025-era upstream sends at its own default (everything comes), a
      // 2026-07-28 request without a level asks its upstream for none.
      const unset = upstreamName.includes("2026") ? [] : ["a debug line", "an error line"];
      expect(lines.map((l) => l.data)).toEqual(stateful === "true" ? ["an error line"] : unset);
    } else {
      const client = await v2Client(s.url, s.t.member.token);
      client.setNotificationHandler("notifications/message", (n) => void lines.push(n.params));
      await client.callTool({ name: "log", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "warning" } });
      await client.callTool({ name: "log", arguments: {} }); // no level on the request: no log messages
      await client.close();
      expect(lines.map((l) => l.data)).toEqual(["an error line"]);
    }
    if (lines.length > 0) expect(lines.at(-1)).toMatchObject({ level: "error", logger: "up" });
  });

  it.each(CLIENTS)("%s cancelling the call cancels the upstream's request", async (_c, sdk, stateful) => {
    // Per client: a 2025-era client in a session or stateless (the default), as CLIENTS says.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", stateful);
    const s = await flightScenario(app.origin, upstream().url);
    const before = upstream().cancelled;
    const calls = () => upstream().messages.filter((m) => m.method === "tools/call" && m.params?.name === "slow").length;
    const callsBefore = calls();
    const controller = new AbortController();
    const client = sdk === "v1" ? await v1Client(s.url, s.t.member.token) : await v2Client(s.url, s.t.member.token);
    const call = sdk === "v1" ? client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal } as never) : client.callTool({ name: "slow", arguments: {} }, { signal: controller.signal } as never);
    call.catch(() => undefined);
    await until(() => calls() > callsBefore); // the call is running upstream
    const aborted = Date.now();
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => upstream().cancelled > before);
    await client.close();
    expect(Date.now() - aborted).toBeLessThan(3000); // not the upstream's own 10 s
    expect(upstream().cancelled).toBe(before + 1);
  });
});
