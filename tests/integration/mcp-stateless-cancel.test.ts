import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createApiKeyFor } from "@/tests/helpers/factories";
import type { FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, startFlightSite, stopFlightSite, v1Client, v2Client } from "@/tests/helpers/flight-scenario";
import { postRaw } from "@/tests/helpers/mcp-clients";
import type { RouteServer } from "@/tests/helpers/route-server";

/**
 * A 2025-era stateless call is cancelled by a `notifications/cancelled` POSTed on its own:
 * without a session nothing ties the two requests but the credential they carry, so the call
 * is found by (credential, endpoint, request id): the same key's cancellation sent to another
 * server's endpoint, or to /mcp, is not the call's. A different credential — even another API key of the
 * same user — never cancels it, whatever id it names; and a cancellation sent inside a session
 * is that session's own (its SDK server matches the id), never another call's.
 */

let app: RouteServer;
let v1: FlightUpstream;
let v2: FlightUpstream;
beforeAll(async () => void ({ app, v1, v2 } = await startFlightSite()));
afterAll(() => stopFlightSite({ app, v1, v2 }));
afterEach(() => vi.unstubAllEnvs());

const HEADERS = { "mcp-protocol-version": "2025-11-25" };
const bearer = (token: string) => ({ ...HEADERS, authorization: `Bearer ${token}` });
const cancel = (requestId: number) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end; ) await sleep(25);
};

/** Starts the upstream's `slow` tool (it waits up to 10 s for its cancellation) under `id`; resolves once it runs upstream. */
async function startSlowCall(url: string, token: string, id: number, upstream: FlightUpstream) {
  const calls = () => upstream.messages.filter((m) => m.method === "tools/call" && m.params?.name === "slow").length;
  const before = calls();
  const answer = postRaw(url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: {} } }, bearer(token));
  answer.catch(() => undefined); // settles when the app stops, if the call was cancelled
  await until(() => calls() > before);
  expect(calls()).toBe(before + 1);
  return { answer };
}

describe("stateless cancellation is matched by credential, endpoint and request id", () => {
  it("the same key naming the call's id on another server's endpoint, or on /mcp, does not cancel it; on the call's own endpoint it does", async () => {
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "false");
    const s = await flightScenario(app.origin, v1.url);
    const other = await api(s.t.admin.token).post(`/api/v1/workspaces/${s.t.workspace.id}/servers`, { name: "Other", connectorIds: [s.connectorId] });
    expect(other.status, other.text).toBe(201);
    const before = v1.cancelled;
    const { answer } = await startSlowCall(s.url, s.t.member.token, 43, v1);
    for (const url of [`${app.origin}/mcp/${other.body.id}`, `${app.origin}/mcp`]) expect((await postRaw(url, cancel(43), bearer(s.t.member.token))).status).toBe(202);
    await sleep(800);
    expect(v1.cancelled).toBe(before);
    expect((await postRaw(s.url, cancel(43), bearer(s.t.member.token))).status).toBe(202);
    await until(() => v1.cancelled > before);
    expect(v1.cancelled).toBe(before + 1);
    void answer;
  });

  it("another credential of the same user naming the call's id does not cancel it; the call's own credential does", async () => {
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "false");
    const s = await flightScenario(app.origin, v1.url);
    const otherKey = await createApiKeyFor(s.t.member.user, { id: s.t.workspace.id, orgId: s.t.org.id });
    const before = v1.cancelled;
    const { answer } = await startSlowCall(s.url, s.t.member.token, 41, v1);
    for (const token of [otherKey.token, s.t.admin.token]) expect((await postRaw(s.url, cancel(41), bearer(token))).status).toBe(202);
    await sleep(800);
    expect(v1.cancelled).toBe(before);
    expect((await postRaw(s.url, cancel(41), bearer(s.t.member.token))).status).toBe(202);
    await until(() => v1.cancelled > before);
    expect(v1.cancelled).toBe(before + 1);
    void answer; // a cancelled request gets no answer; its stream ends with the app
  });

  it("a cancellation sent inside a 2025-era session never cancels a 2026-07-28 call of the same credential", async () => {
    // A 2025-era session next to a 2026-07-28 call: the case under test.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, v1.url);
    const session = await v1Client(s.url, s.t.member.token);
    const modern = await v2Client(s.url, s.t.member.token);
    const controller = new AbortController();
    try {
      const before = v1.cancelled;
      const calls = () => v1.messages.filter((m) => m.method === "tools/call" && m.params?.name === "slow").length;
      const callsBefore = calls();
      const call = modern.callTool({ name: "slow", arguments: {} }, { signal: controller.signal } as never);
      call.catch(() => undefined);
      await until(() => calls() > callsBefore);
      const sessionId = (session.transport as unknown as { sessionId: string }).sessionId;
      // Whatever id the 2026-07-28 call has, the session names it among these.
      for (let id = 0; id < 10; id++) expect((await postRaw(s.url, cancel(id), { ...bearer(s.t.member.token), "mcp-session-id": sessionId })).status).toBe(202);
      await sleep(800);
      expect(v1.cancelled).toBe(before);
      controller.abort();
      await until(() => v1.cancelled > before);
      expect(v1.cancelled).toBe(before + 1);
    } finally {
      await Promise.all([session.close(), modern.close()]);
    }
  });
});
