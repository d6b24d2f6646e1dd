import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStatelessAsks } from "@/lib/mcp/serve/connection-state/ask-stateless-client";
import { disconnectRedis } from "@/lib/redis/redis-connections";
import { startAppInstance, type AppInstance } from "@/tests/helpers/app-instance";
import { api } from "@/tests/helpers/api";
import { postRaw } from "@/tests/helpers/mcp-clients";
import { flightScenario, startFlightSite, stopFlightSite, v2LegacyClient, type FlightSite } from "@/tests/helpers/flight-scenario";
import { startTestRedis, type TestRedis } from "@/tests/helpers/redis-server";

/**
 * Issue 12 point 4, stateless 2025-era serving behind a load balancer: the client's answer to
 * an upstream's elicitation is a separate POST with no session, so it may land on an instance
 * other than the one running the call. Two instances sharing PostgreSQL and a real Redis: the
 * answer travels over Redis pub/sub to the call, in both directions. A cancellation is its own
 * POST too: it reaches the call's instance the same way, with the call's endpoint in its key.
 */

let redis: TestRedis;
let site: FlightSite;
let other: AppInstance;

beforeAll(async () => {
  redis = await startTestRedis();
  // Read when this process first connects to Redis, i.e. after this.
  process.env.REDIS_URL = redis.url;
  process.env.MCP_STATEFUL_SESSIONS = "false";
  site = await startFlightSite();
  // The second instance shares the Redis of this process: answers cross instances through it (a default install has no Redis).
  other = await startAppInstance({ REDIS_URL: redis.url, MCP_STATEFUL_SESSIONS: "false" });
  await vi.waitFor(async () => expect((await other.fetch("/api/ready")).status).toBe(200), { timeout: 15_000, interval: 200 });
}, 60_000);

afterAll(async () => {
  await other?.stop();
  await stopFlightSite(site ?? {});
  disconnectRedis();
  await redis?.dispose();
  delete process.env.REDIS_URL;
  delete process.env.MCP_STATEFUL_SESSIONS;
});

/** A fetch that sends the client's answers (JSON-RPC responses) to `answers` instead of the call's instance. */
function answersTo(answers: string, rerouted: number[]): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    if (!body || !("result" in body || "error" in body) || "method" in body) return fetch(input, init);
    const url = new URL(String(input instanceof Request ? input.url : input));
    const response = await fetch(new URL(url.pathname, answers), init);
    rerouted.push(response.status);
    return response;
  };
}

describe("a stateless call's client input, answered on another instance", () => {
  it.each([
    ["the call on this instance, the answer on the other", () => site.app.origin, () => other.url],
    ["the call on the other instance, the answer on this one", () => other.url, () => site.app.origin],
  ])("%s: the elicitation answer reaches the tool through Redis", async (_n, callOn, answerOn) => {
    const s = await flightScenario(callOn(), site.v1.url);
    const rerouted: number[] = [];
    const client = await v2LegacyClient(s.url, s.t.member.token, { elicitation: {} }, answersTo(answerOn(), rerouted));
    let asked = 0;
    client.setRequestHandler("elicitation/create", () => (asked++, { action: "accept", content: { name: "ada" } }));
    try {
      const result = await client.callTool({ name: "elicit", arguments: {} });
      expect(JSON.stringify(result.content)).toContain('\\"name\\":\\"ada\\"');
      expect(asked).toBe(1);
      expect(rerouted).toEqual([202]); // the answer did land on the other instance
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("a stateless call's cancellation, sent to another instance", () => {
  const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
  const headers = (token: string) => ({ "mcp-protocol-version": "2025-11-25", authorization: `Bearer ${token}` });

  it("reaches the call through Redis on the call's endpoint only: the same key and id on another server's endpoint cancel nothing", async () => {
    const s = await flightScenario(other.url, site.v1.url);
    const second = await api(s.t.admin.token).post(`/api/v1/workspaces/${s.t.workspace.id}/servers`, { name: "Second", connectorIds: [s.connectorId] });
    expect(second.status, second.text).toBe(201);
    const slowCalls = () => site.v1.messages.filter((m) => m.method === "tools/call" && m.params?.name === "slow").length;
    const [callsBefore, cancelledBefore] = [slowCalls(), site.v1.cancelled];
    const answer = postRaw(s.url, { jsonrpc: "2.0", id: 51, method: "tools/call", params: { name: "slow", arguments: {} } }, headers(s.t.member.token));
    answer.catch(() => undefined);
    await vi.waitFor(() => expect(slowCalls()).toBe(callsBefore + 1), { timeout: 10_000, interval: 25 });
    expect((await postRaw(`${site.app.origin}/mcp/${second.body.id}`, cancel(51), headers(s.t.member.token))).status).toBe(202);
    await new Promise((r) => setTimeout(r, 800));
    expect(site.v1.cancelled).toBe(cancelledBefore);
    expect((await postRaw(`${site.app.origin}/mcp/${s.serverId}`, cancel(51), headers(s.t.member.token))).status).toBe(202);
    await vi.waitFor(() => expect(site.v1.cancelled).toBe(cancelledBefore + 1), { timeout: 5000, interval: 25 });
  });
});
