import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as V2Client } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { upstreamPool } from "@/lib/connectors/runtime/default-pool";
import { heldCalls } from "@/lib/mcp/serve/protocol/serve-tool-call";
import { ELICITING_RESOURCE, type FlightUpstream } from "@/tests/helpers/flight-upstreams";
import { flightScenario, v1Client, v2Client, v2LegacyClient, startFlightSite, stopFlightSite } from "@/tests/helpers/flight-scenario";
import { rpcError } from "@/tests/helpers/mcp-clients";
import { api } from "@/tests/helpers/api";
import type { RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 12 point 4, "Client input, across eras": an upstream's sampling/createMessage,
 * elicitation/create and roots/list reach the calling client and its answer goes back —
 * 2025-era upstream (server-to-client requests) and 2026-07-28 upstream (input_required),
 * each to a 2025-era client in a session (server-to-client requests) and a 2026-07-28 client
 * (input_required) — and a client that did not declare the capability gets -32021. The
 * upstream connection is pooled per (workspace, user, connector): two sessions of one user
 * calling at once each get their own answer back. prompts/get and resources/read of an
 * upstream's prompt or resource carry client input the same way.
 */

let app: RouteServer;
let v1: FlightUpstream;
let v2: FlightUpstream;
beforeAll(async () => void ({ app, v1, v2 } = await startFlightSite()));
afterAll(() => stopFlightSite({ app, v1, v2 }));
afterEach(() => vi.unstubAllEnvs());

const ALL = { sampling: {}, elicitation: {}, roots: {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answers {
  name: string;
  delayMs?: number;
}

const sampled = (a: Answers) => ({ role: "assistant" as const, content: { type: "text" as const, text: `4, says ${a.name}` }, model: "test-model" });
const elicited = (a: Answers) => ({ action: "accept" as const, content: { name: a.name } });
const rooted = (a: Answers) => ({ roots: [{ uri: `file:///home/${a.name}`, name: a.name }] });

/** Handlers for the capabilities declared (the SDKs refuse a handler for an undeclared one). */
function answerV1(client: V1Client, a: Answers, declared: Record<string, unknown>) {
  if (declared.sampling) client.setRequestHandler(CreateMessageRequestSchema, async () => (await sleep(a.delayMs ?? 0), sampled(a)));
  if (declared.elicitation) client.setRequestHandler(ElicitRequestSchema, async () => (await sleep(a.delayMs ?? 0), elicited(a)));
  if (declared.roots) client.setRequestHandler(ListRootsRequestSchema, async () => (await sleep(a.delayMs ?? 0), rooted(a)));
}

function answerV2(client: V2Client, a: Answers, declared: Record<string, unknown>) {
  if (declared.sampling) client.setRequestHandler("sampling/createMessage", async () => (await sleep(a.delayMs ?? 0), sampled(a)));
  if (declared.elicitation) client.setRequestHandler("elicitation/create", async () => (await sleep(a.delayMs ?? 0), elicited(a)));
  if (declared.roots) client.setRequestHandler("roots/list", async () => (await sleep(a.delayMs ?? 0), rooted(a)));
}

type Kind = "v1-session" | "v2-modern" | "v2-session";

/** A client of `kind` declaring `capabilities`, answering as `a`; stateful serving where the kind needs it. */
async function connect(kind: Kind, url: string, token: string, a: Answers, capabilities: Record<string, unknown> = ALL) {
  if (kind === "v1-session") {
    const client = await v1Client(url, token, capabilities);
    answerV1(client, a, capabilities);
    return { call: (name: string): Promise<unknown> => client.callTool({ name, arguments: {} }), prompt: (name: string): Promise<unknown> => client.getPrompt({ name }), read: (uri: string): Promise<unknown> => client.readResource({ uri }), close: () => client.close() };
  }
  const client = kind === "v2-modern" ? await v2Client(url, token, capabilities) : await v2LegacyClient(url, token, capabilities);
  answerV2(client, a, capabilities);
  return { call: (name: string): Promise<unknown> => client.callTool({ name, arguments: {} }), prompt: (name: string): Promise<unknown> => client.getPrompt({ name }), read: (uri: string): Promise<unknown> => client.readResource({ uri }), close: () => client.close() };
}

const text = (r: unknown) => JSON.stringify((r as { content?: unknown }).content);

const UPSTREAMS = [
  ["a 2025-era upstream (server-to-client requests)", () => v1],
  ["a 2026-07-28 upstream (input_required)", () => v2],
] as const;
const CLIENTS = [
  ["a v1 client in a 2025-era session", "v1-session"],
  ["a v2 client in a 2025-era session", "v2-session"],
  ["a v2 client on 2026-07-28 (input_required)", "v2-modern"],
] as const;

describe.each(UPSTREAMS)("%s", (_u, upstream) => {
  it.each(CLIENTS)("%s answers sampling, elicitation and roots; the answers reach the upstream's tool", async (_c, kind) => {
    // Stateful sessions: the 2025-era clients here answer in a session (stateless: mcp-stateless-client-input.test.ts).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, upstream().url);
    const client = await connect(kind, s.url, s.t.member.token, { name: "ada" });
    try {
      expect(text(await client.call("sample"))).toContain("4, says ada");
      expect(text(await client.call("elicit"))).toContain('\\"name\\":\\"ada\\"');
      expect(text(await client.call("roots"))).toContain("file:///home/ada");
    } finally {
      await client.close();
    }
  });

  it.each(CLIENTS)("%s answers the elicitation a prompt asks for (prompts/get), and the answer reaches the upstream's prompt", async (_c, kind) => {
    // Stateful sessions: the 2025-era clients here answer in a session (stateless: mcp-stateless-client-input.test.ts).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, upstream().url);
    const client = await connect(kind, s.url, s.t.member.token, { name: "ada" });
    const undeclared = await connect(kind, s.url, s.t.member.token, { name: "bob" }, { roots: {} });
    try {
      expect(JSON.stringify(await client.prompt("elicit"))).toContain('\\"name\\":\\"ada\\"');
      expect((await rpcError(undeclared.prompt("elicit"))).code).toBe(-32021);
    } finally {
      await Promise.all([client.close(), undeclared.close()]);
    }
  });

  it.each(CLIENTS)("%s answers the elicitation an upstream resource's read asks for (resources/read), and the answer reaches the upstream", async (_c, kind) => {
    // Stateful sessions: the 2025-era clients here answer in a session (stateless: mcp-stateless-client-input.test.ts).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, upstream().url);
    const client = await connect(kind, s.url, s.t.member.token, { name: "ada" });
    const undeclared = await connect(kind, s.url, s.t.member.token, { name: "bob" }, { roots: {} });
    try {
      const read = (await client.read(ELICITING_RESOURCE)) as { contents: Array<{ uri: string; text: string }> };
      expect(read.contents[0].uri).toBe(ELICITING_RESOURCE);
      expect(JSON.parse(read.contents[0].text).answer).toMatchObject({ action: "accept", content: { name: "ada" } });
      const error = await rpcError(undeclared.read(ELICITING_RESOURCE));
      expect(error.code).toBe(-32021);
      expect(JSON.stringify(error.data)).toContain("elicitation");
      expect(heldCalls()).toEqual({ parked: 0, asks: 0 });
    } finally {
      await Promise.all([client.close(), undeclared.close()]);
    }
  });

  it.each(CLIENTS)("%s that did not declare the capability gets -32021", async (_c, kind) => {
    // Stateful sessions: the 2025-era clients here answer in a session (stateless: mcp-stateless-client-input.test.ts).
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, upstream().url);
    const client = await connect(kind, s.url, s.t.member.token, { name: "ada" }, { roots: {} });
    try {
      const error = await rpcError(client.call("sample"));
      expect(error.code).toBe(-32021);
      expect(JSON.stringify(error.data)).toContain("sampling");
      expect(text(await client.call("roots"))).toContain("file:///home/ada"); // the one it declared still works
    } finally {
      await client.close();
    }
  });

  it.each(CLIENTS)("two sessions of one user, one pooled upstream connection: %s — each gets its own answer back", async (_c, kind) => {
    // Stateful sessions: two sessions of one user are the case under test.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");
    const s = await flightScenario(app.origin, upstream().url);
    const slow = await connect(kind, s.url, s.t.member.token, { name: "slow-sam", delayMs: 400 });
    const quick = await connect(kind, s.url, s.t.member.token, { name: "quick-quinn" });
    try {
      const [a, b] = await Promise.all([slow.call("elicit"), sleep(100).then(() => quick.call("elicit"))]);
      expect(text(a)).toContain("slow-sam");
      expect(text(a)).not.toContain("quick-quinn");
      expect(text(b)).toContain("quick-quinn");
      expect(text(b)).not.toContain("slow-sam");
      const owner = { orgId: s.t.org.id, workspaceId: s.t.workspace.id, userId: s.t.member.user.id, connectorId: s.connectorId };
      expect(await upstreamPool().connectionFor(owner)).not.toBeNull(); // one connection carried both
    } finally {
      await Promise.all([slow.close(), quick.close()]);
    }
  });
});

describe("a 2026-07-28 prompt of a 2026-07-28 upstream that answers input_required", () => {
  it("reaches the 2026-07-28 client as that InputRequiredResult, its requestState untouched; the retry with the answer goes back to the upstream", async () => {
    const s = await flightScenario(app.origin, v2.url);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    try {
      const first = (await client.getPrompt({ name: "elicit" }, { allowInputRequired: true } as never)) as any;
      expect(first.resultType).toBe("input_required");
      expect(first.requestState).toBe("upstream-state-prompt");
      expect(first.inputRequests.elicit.method).toBe("elicitation/create");
      const inputResponses = { elicit: { action: "accept", content: { name: "grace" } } };
      const done = await client.getPrompt({ name: "elicit", inputResponses, requestState: first.requestState } as never);
      const said = JSON.stringify(done.messages);
      expect(said).toContain("grace");
      expect(said).toContain("upstream-state-prompt");
    } finally {
      await client.close();
    }
  });
});

describe("a 2026-07-28 upstream resource whose read answers input_required", () => {
  it("reaches the 2026-07-28 client as that InputRequiredResult, its requestState untouched; the retry with the answer goes back to the upstream", async () => {
    const s = await flightScenario(app.origin, v2.url);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    try {
      const first = (await client.readResource({ uri: ELICITING_RESOURCE }, { allowInputRequired: true } as never)) as any;
      expect(first.resultType).toBe("input_required");
      expect(first.requestState).toBe("upstream-state-resource");
      expect(first.inputRequests.elicit.method).toBe("elicitation/create");
      const inputResponses = { elicit: { action: "accept", content: { name: "grace" } } };
      const done = await client.readResource({ uri: ELICITING_RESOURCE, inputResponses, requestState: first.requestState } as never);
      expect(JSON.parse((done.contents[0] as { text: string }).text)).toEqual({ answer: inputResponses.elicit, requestState: "upstream-state-resource" });
    } finally {
      await client.close();
    }
  });

  it("held by the platform for a 2025-era upstream, it resumes only as a resources/read: a prompts/get naming its requestState is refused", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    try {
      const first = (await client.readResource({ uri: ELICITING_RESOURCE }, { allowInputRequired: true } as never)) as any;
      expect(first.resultType).toBe("input_required");
      expect(first.requestState).toMatch(/^sbcall_/);
      const inputResponses = Object.fromEntries(Object.keys(first.inputRequests).map((key) => [key, { action: "accept", content: { name: "eve" } }]));
      const error = await rpcError(client.request({ method: "prompts/get", params: { name: "elicit", inputResponses, requestState: first.requestState } } as never));
      expect(error.code).toBe(-32602);
      const done = await client.readResource({ uri: ELICITING_RESOURCE, inputResponses, requestState: first.requestState } as never);
      expect(JSON.parse((done.contents[0] as { text: string }).text).answer).toMatchObject({ content: { name: "eve" } });
    } finally {
      await client.close();
    }
  });
});

// Stateless 2025-era serving: tests/integration/mcp-stateless-client-input.test.ts.

describe("a client that declared its capabilities without sampling", () => {
  it.each(["v1-session", "v2-modern"] as const)("%s gets -32021 even when the upstream's tool falls back", async (kind) => {
    // The v1 client in a session; the v2 client on 2026-07-28 with the default stateless serving.
    vi.stubEnv("MCP_STATEFUL_SESSIONS", kind === "v1-session" ? "true" : "false");
    const s = await flightScenario(app.origin, v1.url);
    const client = await connect(kind, s.url, s.t.member.token, { name: "ada" }, { roots: {} });
    try {
      const error = await rpcError(client.call("fallback"));
      expect(error.code).toBe(-32021);
      expect(JSON.stringify(error.data)).toContain("sampling");
    } finally {
      await client.close();
    }
  });
});

describe("a 2026-07-28 retry", () => {
  it("with a requestState the platform did not issue to this credential is refused (-32602), and the parked call is not answered", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    try {
      for (const requestState of ["forged", "sbcall_00000000-0000-0000-0000-000000000000"]) {
        const error = await rpcError(client.request({ method: "tools/call", params: { name: "elicit", arguments: {}, requestState, inputResponses: {} } }));
        expect(error.code).toBe(-32602);
      }
    } finally {
      await client.close();
    }
  });

  it("naming a call held on another server's endpoint is refused (-32602), even under the same key; the call resumes on its own endpoint", async () => {
    const s = await flightScenario(app.origin, v1.url);
    const other = await api(s.t.admin.token).post(`/api/v1/workspaces/${s.t.workspace.id}/servers`, { name: "Other", connectorIds: [s.connectorId] });
    expect(other.status).toBe(201);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    const elsewhere = await v2Client(`${app.origin}/mcp/${other.body.id}`, s.t.member.token, ALL);
    try {
      const first = (await client.readResource({ uri: ELICITING_RESOURCE }, { allowInputRequired: true } as never)) as any;
      expect(first.requestState).toMatch(/^sbcall_/);
      const inputResponses = Object.fromEntries(Object.keys(first.inputRequests).map((key) => [key, { action: "accept", content: { name: "eve" } }]));
      const error = await rpcError(elsewhere.request({ method: "resources/read", params: { uri: ELICITING_RESOURCE, inputResponses, requestState: first.requestState } } as never));
      expect(error.code).toBe(-32602);
      const done = await client.readResource({ uri: ELICITING_RESOURCE, inputResponses, requestState: first.requestState } as never);
      expect(JSON.parse((done.contents[0] as { text: string }).text).answer).toMatchObject({ content: { name: "eve" } });
    } finally {
      await client.close();
      await elsewhere.close();
    }
  });

  // A 2025-era upstream's request is held here (a 2026-07-28 upstream's input_required passes through as it is).
  it("never sent after input_required: the held call expires and nothing of it remains", async () => {
    vi.stubEnv("UPSTREAM_CALL_TIMEOUT_MS", "700");
    const s = await flightScenario(app.origin, v1.url);
    const client = await v2Client(s.url, s.t.member.token, ALL);
    let asked = 0;
    // The client is asked, and never answers (its retry never comes).
    client.setRequestHandler("elicitation/create", () => (asked++, new Promise<never>(() => undefined)));
    try {
      void client.callTool({ name: "elicit", arguments: {} }).catch(() => undefined);
      await vi.waitFor(() => expect(asked).toBe(1), { timeout: 5_000 });
      expect(heldCalls().parked).toBe(1);
      // The expiry rejects every unanswered ask: no held call, no input request left waiting.
      await vi.waitFor(() => expect(heldCalls()).toEqual({ parked: 0, asks: 0 }), { timeout: 5_000, interval: 50 });
    } finally {
      await client.close();
    }
  });
});
