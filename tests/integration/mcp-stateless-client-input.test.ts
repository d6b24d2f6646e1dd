import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openStatelessAsks } from "@/lib/mcp/serve/connection-state/ask-stateless-client";
import type { FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, startFlightSite, stopFlightSite, UPSTREAM_SECRET, v1Client, v2LegacyClient } from "@/tests/helpers/flight-scenario";
import { postRaw, rpcError } from "@/tests/helpers/mcp-clients";
import type { RouteServer } from "@/tests/helpers/route-server";
import { ELICITING_RESOURCE } from "@/tests/helpers/flight-upstreams";

/**
 * Issue 12 point 4 on the default serving (MCP_STATEFUL_SESSIONS off): a 2025-era client's
 * POST gets no session, yet an upstream's sampling, elicitation and roots requests reach it on
 * the tools/call POST's own SSE stream, and its answer — a JSON-RPC response POSTed with no
 * session — goes back to the call by its id. Only the calling credential can answer.
 */

let app: RouteServer;
let v1: FlightUpstream;
let v2: FlightUpstream;
beforeAll(async () => void ({ app, v1, v2 } = await startFlightSite()));
afterAll(() => stopFlightSite({ app, v1, v2 }));
beforeEach(() => {
  vi.stubEnv("MCP_STATEFUL_SESSIONS", "false");
  return () => vi.unstubAllEnvs();
});

const ALL = { sampling: {}, elicitation: {}, roots: {} };
const text = (r: unknown) => JSON.stringify((r as { content?: unknown }).content);

/** Every response the client got, to show that stateless serving issued no session. */
function watchingFetch(sessionIds: string[], before?: (init: RequestInit | undefined) => Promise<void>): typeof fetch {
  return async (input, init) => {
    await before?.(init);
    const response = await fetch(input, init);
    const sid = response.headers.get("mcp-session-id");
    if (sid) sessionIds.push(sid);
    return response;
  };
}

interface Caller {
  call(name: string): Promise<unknown>;
  prompt(name: string): Promise<unknown>;
  asked: string[];
  close(): Promise<void>;
}

/** A v1 or v2 SDK client on the 2025 wire answering as `name` what it declared. */
async function connect(sdk: "v1" | "v2", url: string, token: string, name: string, declared: Record<string, unknown>, fetch?: typeof globalThis.fetch): Promise<Caller> {
  const asked: string[] = [];
  const sampled = () => (asked.push("sampling"), { role: "assistant" as const, content: { type: "text" as const, text: `4, says ${name}` }, model: "test-model" });
  const elicited = () => (asked.push("elicitation"), { action: "accept" as const, content: { name } });
  const rooted = () => (asked.push("roots"), { roots: [{ uri: `file:///home/${name}`, name }] });
  if (sdk === "v1") {
    const client = await v1Client(url, token, declared, fetch);
    if (declared.sampling) client.setRequestHandler(CreateMessageRequestSchema, sampled);
    if (declared.elicitation) client.setRequestHandler(ElicitRequestSchema, elicited);
    if (declared.roots) client.setRequestHandler(ListRootsRequestSchema, rooted);
    return { call: (tool) => client.callTool({ name: tool, arguments: {} }), prompt: (name) => client.getPrompt({ name }), asked, close: () => client.close() };
  }
  const client = await v2LegacyClient(url, token, declared, fetch);
  if (declared.sampling) client.setRequestHandler("sampling/createMessage", sampled);
  if (declared.elicitation) client.setRequestHandler("elicitation/create", elicited);
  if (declared.roots) client.setRequestHandler("roots/list", rooted);
  return { call: (tool) => client.callTool({ name: tool, arguments: {} }), prompt: (name) => client.getPrompt({ name }), asked, close: () => client.close() };
}

const SDKS = [
  ["a v1 SDK client", "v1"],
  ["a v2 SDK client on the 2025 wire", "v2"],
] as const;

describe("stateless serving, a 2025-era upstream (server-to-client requests)", () => {
  it.each(SDKS)("%s gets sampling, elicitation and roots on the call's stream; its answers reach the tool", async (_s, sdk) => {
    const s = await flightScenario(app.origin, v1.url);
    const sessionIds: string[] = [];
    const client = await connect(sdk, s.url, s.t.member.token, "ada", ALL, watchingFetch(sessionIds));
    try {
      expect(text(await client.call("sample"))).toContain("4, says ada");
      expect(text(await client.call("elicit"))).toContain('\\"name\\":\\"ada\\"');
      expect(text(await client.call("roots"))).toContain("file:///home/ada");
      expect(client.asked).toEqual(["sampling", "elicitation", "roots"]);
      expect(sessionIds).toEqual([]); // no session carried any of it
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("stateless serving, a 2026-07-28 upstream (input_required)", () => {
  it.each(SDKS)("%s: the upstream is told the caller declared nothing, so its fallback answer reaches the client; a tool that asks anyway fails with -32021", async (_s, sdk) => {
    const s = await flightScenario(app.origin, v2.url);
    const client = await connect(sdk, s.url, s.t.member.token, "ada", ALL);
    try {
      expect(text(await client.call("fallback"))).toContain("sampling not declared");
      expect((await rpcError(client.call("sample"))).code).toBe(-32021);
      expect(client.asked).toEqual([]); // a 2026-07-28 upstream never reaches a stateless caller
    } finally {
      await client.close();
    }
  });
});

describe("stateless serving, prompts/get of a 2025-era upstream whose prompt elicits", () => {
  it.each(SDKS)("%s is asked on the prompts/get POST's stream and its answer reaches the upstream's prompt", async (_s, sdk) => {
    const s = await flightScenario(app.origin, v1.url);
    const client = await connect(sdk, s.url, s.t.member.token, "ada", ALL);
    try {
      expect(JSON.stringify(await client.prompt("elicit"))).toContain('\\"name\\":\\"ada\\"');
      expect(client.asked).toEqual(["elicitation"]);
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("stateless serving, a client without the handler (it declared roots only)", () => {
  it.each(SDKS)("%s: the upstream is refused with -32021 and its fallback answer reaches the client; a tool that needs the input fails with -32021", async (_s, sdk) => {
    const s = await flightScenario(app.origin, v1.url);
    const client = await connect(sdk, s.url, s.t.member.token, "ada", { roots: {} });
    try {
      expect(text(await client.call("fallback"))).toContain('\\"fellBackAfter\\":-32021');
      const error = await rpcError(client.call("elicit"));
      expect(error.code).toBe(-32021);
      expect(text(await client.call("roots"))).toContain("file:///home/ada"); // what it declared still works
    } finally {
      await client.close();
    }
  });
});

describe("stateless serving, the answer POST", () => {
  it("from another credential is ignored (202, as an unknown id): the call takes the caller's own answer", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const forged: number[] = [];
    // Before the client's answer goes out, the admin's key POSTs its own answer under the same id.
    const forge = async (init: RequestInit | undefined) => {
      const message = typeof init?.body === "string" ? (JSON.parse(init.body) as { id?: unknown; result?: unknown }) : null;
      if (!message || typeof message.id !== "string" || !("result" in message)) return;
      const res = await postRaw(s.url, { jsonrpc: "2.0", id: message.id, result: { action: "accept", content: { name: "mallory" } } }, { authorization: `Bearer ${s.t.admin.token}`, "mcp-protocol-version": "2025-11-25" });
      forged.push(res.status);
    };
    const client = await connect("v2", s.url, s.t.member.token, "ada", ALL, watchingFetch([], forge));
    try {
      const result = text(await client.call("elicit"));
      expect(forged).toEqual([202]);
      expect(result).toContain('\\"name\\":\\"ada\\"');
      expect(result).not.toContain("mallory");
    } finally {
      await client.close();
    }
  });

  it("that never comes: the ask expires after UPSTREAM_CALL_TIMEOUT_MS, the call fails, and nothing of it stays behind", async () => {
    // Calls time out in 0.7 s (default 60 s) so the unanswered ask expires within the test.
    vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "700");
    const s = await flightScenario(app.origin, v1.url);
    const client = await v2LegacyClient(s.url, s.t.member.token, { elicitation: {} });
    let asked = 0;
    client.setRequestHandler("elicitation/create", () => (asked++, new Promise<never>(() => undefined)));
    try {
      // The call's own timeout (an isError result) or the upstream's error: either way an answer, not a hang.
      const outcome = client.callTool({ name: "elicit", arguments: {} }).then((r) => (r.isError ? "isError" : JSON.stringify(r)), (e: { code?: number }) => `error ${e.code}`);
      await vi.waitFor(() => expect(openStatelessAsks()).toBe(1), { timeout: 5_000, interval: 20 });
      expect(await outcome).toMatch(/^(isError|error -\d+)$/);
      expect(asked).toBe(1);
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("the upstream gives up on: the client is told the ask is cancelled, without the upstream's reason (it quotes the connector's secret)", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const client = await v2LegacyClient(s.url, s.t.member.token, { elicitation: {} });
    const reasons: string[] = [];
    client.setRequestHandler("elicitation/create", (_request, ctx) => new Promise<never>((_resolve, reject) => {
      ctx.mcpReq.signal.addEventListener("abort", () => (reasons.push(String(ctx.mcpReq.signal.reason)), reject(new Error("cancelled"))));
    }));
    try {
      expect(text(await client.callTool({ name: "cancel_ask", arguments: {} }))).toContain("gave up");
      await vi.waitFor(() => expect(reasons).toHaveLength(1), { timeout: 5_000, interval: 20 });
      expect(reasons[0]).toContain("the call was cancelled");
      expect(reasons[0]).not.toContain(UPSTREAM_SECRET.split(" ")[1]);
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await client.close();
    }
  });

  it.each([
    ["an unknown id", { jsonrpc: "2.0", id: "sbask_00000000-0000-0000-0000-000000000000", result: {} }],
    ["an unknown id, as an error", { jsonrpc: "2.0", id: "sbask_nothing-asked", error: { code: -32601, message: "Method not found" } }],
    ["an id the platform never mints", { jsonrpc: "2.0", id: 7, result: {} }],
  ])("with %s is answered 202, as the SDK answers a response it cannot match", async (_n, message) => {
    const s = await flightScenario(app.origin, v1.url);
    const res = await postRaw(s.url, message, { authorization: `Bearer ${s.t.member.token}`, "mcp-protocol-version": "2025-11-25" });
    expect(res.status).toBe(202);
    expect(res.body).toBeNull();
  });

  it("without a credential is refused (401) before it is read", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const res = await postRaw(s.url, { jsonrpc: "2.0", id: "sbask_x", result: {} });
    expect(res.status).toBe(401);
  });
});

// A 2026-07-28 upstream is told a stateless caller declared nothing (its capabilities are unknown): only a 2025-era one asks it.
describe("stateless serving, resources/read of a 2025-era upstream whose resource elicits", () => {
  it.each(SDKS)("%s is asked on the read's own stream and its answer reaches the upstream; one that declared no elicitation gets -32021", async (_s, sdk) => {
    const s = await flightScenario(app.origin, v1.url);
    const sessionIds: string[] = [];
    const name = "ada";
    const asked: string[] = [];
    const elicited = () => (asked.push("elicitation"), { action: "accept" as const, content: { name } });
    const client = sdk === "v1" ? await v1Client(s.url, s.t.member.token, ALL, watchingFetch(sessionIds)) : await v2LegacyClient(s.url, s.t.member.token, ALL, watchingFetch(sessionIds));
    if (sdk === "v1") (client as Awaited<ReturnType<typeof v1Client>>).setRequestHandler(ElicitRequestSchema, elicited);
    else (client as Awaited<ReturnType<typeof v2LegacyClient>>).setRequestHandler("elicitation/create", elicited);
    const undeclared = sdk === "v1" ? await v1Client(s.url, s.t.member.token, { roots: {} }) : await v2LegacyClient(s.url, s.t.member.token, { roots: {} });
    try {
      const read = await client.readResource({ uri: ELICITING_RESOURCE });
      expect(JSON.parse((read.contents[0] as { text: string }).text).answer).toMatchObject({ action: "accept", content: { name: "ada" } });
      expect(asked).toEqual(["elicitation"]);
      expect(sessionIds).toEqual([]);
      expect((await rpcError(undeclared.readResource({ uri: ELICITING_RESOURCE }))).code).toBe(-32021);
      expect(openStatelessAsks()).toBe(0);
    } finally {
      await Promise.all([client.close(), undeclared.close()]);
    }
  });
});
