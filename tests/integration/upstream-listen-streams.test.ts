import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "@/tests/helpers/api";
import { createTenant } from "@/tests/helpers/factories";
import { connectV1, connectV2 } from "@/tests/helpers/mcp-clients";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";
import { type HeldListenUpstream, type ListenMode, startHeldListenUpstream } from "@/tests/fixtures/held-listen-upstream";

/**
 * Issue 21 point 2: "No upstream request ever waits on a listen stream". An `mcp` connector
 * with the defaults (`protocolEra: auto`) to an upstream whose `subscriptions/listen` stream is
 * held the way the MCP conformance suite's reference server holds it (200, chunked
 * `application/json`, one acknowledgement line, held open) or is slow, silent, refused or
 * broken: tools/call, prompts/get and resources/read through /mcp/<serverId> answer promptly
 * (the connect timeout is 10 s; before the fix each answered after it, with "no answer within
 * 10000 ms", and the upstream never saw the call).
 */

let app: RouteServer;
const upstreams: HeldListenUpstream[] = [];
beforeAll(async () => {
  app = await startRouteServer();
}, 60_000);
afterAll(async () => {
  await Promise.all([app.close(), ...upstreams.map((u) => u.close())]);
});

/** A connector with default settings on an upstream holding its listen stream as `mode` says, and its server. */
async function through(mode: ListenMode) {
  const upstream = await startHeldListenUpstream(mode);
  upstreams.push(upstream);
  const t = await createTenant();
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Held", type: "mcp", config: { url: upstream.url } });
  expect(connector.status, connector.text).toBe(201);
  expect(connector.body.config.protocolEra).toBe("auto");
  expect(connector.body.protocolVersion).toBe("2026-07-28");
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Held", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  return { upstream, token: t.member.token, url: `${app.origin}/mcp/${server.body.id}` };
}

/** Resolves with `work`'s value and how long it took. */
async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

// Far below the 10 s connect timeout the calls waited for before the fix; generous for a busy machine.
const PROMPT_MS = 3000;
const text = (r: { content?: unknown }) => JSON.stringify(r.content);

const MODES: Array<[ListenMode, string]> = [
  ["json-held", "answered as chunked application/json, one acknowledgement line, held open (the reference server)"],
  ["slow", "acknowledged only after 3 s"],
  ["silent", "held open without a first event"],
  ["refused-405", "refused with 405"],
  ["refused-404", "refused with 404"],
  ["broken", "acknowledged, then cut mid-way"],
];

describe("an upstream whose listen stream is not what the SDK expects", () => {
  for (const [mode, how] of MODES) {
    it(`${how}: tools/call, prompts/get and resources/read answer promptly on 2026-07-28`, async () => {
      const { upstream, token, url } = await through(mode);
      const client = await connectV2(url, token);
      try {
        const call = await timed(client.client.callTool({ name: "echo", arguments: { text: mode } }));
        expect(text(call.value)).toContain(`echo: ${mode}`);
        expect(call.ms).toBeLessThan(PROMPT_MS);
        const prompt = await timed(client.client.getPrompt({ name: "greet", arguments: { who: "Ada" } }));
        expect(prompt.value.messages[0].content).toEqual({ type: "text", text: "Hello, Ada" });
        expect(prompt.ms).toBeLessThan(PROMPT_MS);
        const read = await timed(client.client.readResource({ uri: "note://one" }));
        expect(read.value.contents[0]).toMatchObject({ text: "the note" });
        expect(read.ms).toBeLessThan(PROMPT_MS);
        // The listen was asked for (the platform wants list changes), and the calls went out on one connection.
        await vi.waitFor(() => expect(upstream.methods).toContain("subscriptions/listen"));
        expect(upstream.methods.filter((m) => m === "server/discover").length).toBeLessThanOrEqual(2); // discovery's own connection, then the pooled one
      } finally {
        await client.close();
      }
    });
  }

  it("the reference server's held JSON stream does not hold a 2025-era session's calls either", async () => {
    const { token, url } = await through("json-held");
    const client = await connectV1(url, token);
    try {
      const call = await timed(client.client.callTool({ name: "echo", arguments: { text: "session" } }));
      expect(text(call.value as { content?: unknown })).toContain("echo: session");
      expect(call.ms).toBeLessThan(PROMPT_MS);
    } finally {
      await client.close();
    }
  });

  it("a slow stream is still acknowledged and kept open, in the background", async () => {
    const { upstream, token, url } = await through("slow");
    const client = await connectV2(url, token);
    try {
      await client.client.callTool({ name: "echo", arguments: { text: "x" } });
      await vi.waitFor(() => expect(upstream.openStreams()).toBe(1), { timeout: 8000 });
    } finally {
      await client.close();
    }
  });
});
