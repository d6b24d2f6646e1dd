import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/net/free-port";
import { api } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";
import { v1Client, v2Client, v2LegacyClient } from "@/tests/helpers/flight-scenario";
import { RELAYED_CAPABILITIES } from "@/lib/connectors/runtime/call-flight";
import { startRouteServer, type RouteServer } from "@/tests/helpers/route-server";

/**
 * Issue 21 point 4: an upstream nobody here wrote — the MCP reference "everything" server
 * (`@modelcontextprotocol/server-everything`, a devDependency, its own Streamable HTTP
 * transport; a 2025-era server) behind an `mcp` connector made with the defaults, reached by
 * clients on both of the product's wires (a 2025-era client, a 2026-07-28 one), with the
 * product's default serving (stateless): tools listed and called, a resource read, a prompt,
 * progress, and the sampling and elicitation its tools ask for. One upstream process for
 * the file.
 */

let app: RouteServer;
let everything: ChildProcess;
let t: Tenant;
let url: string;
/** server-everything's own URL (the comparison connects to it directly). */
let everythingUrl: string;

async function startEverything(): Promise<string> {
  const port = await freePort();
  const pkg = path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json"));
  // PORT: server-everything's own port variable (the upstream's, not a setting of ours).
  everything = spawn(process.execPath, [path.join(pkg, "dist", "index.js"), "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    everything.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(`listening on port ${port}`)) resolve();
    });
    everything.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

beforeAll(async () => {
  const [route, upstreamUrl] = await Promise.all([startRouteServer(), startEverything()]);
  app = route;
  everythingUrl = upstreamUrl;
  t = await createTenant();
  // The defaults: no era, no transport, no headers.
  const connector = await api(t.admin.token).post(`/api/v1/orgs/${t.org.id}/connectors`, { name: "Everything", type: "mcp", config: { url: upstreamUrl } });
  expect(connector.status, connector.text).toBe(201);
  expect(connector.body.config).toMatchObject({ protocolEra: "auto", transport: "streamable-http" });
  const server = await api(t.admin.token).post(`/api/v1/workspaces/${t.workspace.id}/servers`, { name: "Everything", connectorIds: [connector.body.id] });
  expect(server.status, server.text).toBe(201);
  url = `${app.origin}/mcp/${server.body.id}`;
}, 120_000);
afterAll(async () => {
  everything?.kill();
  await app?.close();
});

const CAPABILITIES = { sampling: {}, elicitation: { form: {} } };
const SAMPLED = { role: "assistant" as const, content: { type: "text" as const, text: "sampled: 42" }, model: "test-model" };
const ELICITED = { action: "accept" as const, content: { name: "Ada Lovelace" } };

interface Wire {
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void): Promise<unknown>;
  prompt(name: string): Promise<{ messages: Array<{ content: unknown }> }>;
  resources(): Promise<string[]>;
  read(uri: string): Promise<{ contents: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

/** A 2025-era client (v1 SDK, initialize) answering sampling and elicitation. */
async function wire2025(): Promise<Wire> {
  const client = await v1Client(url, t.member.token, CAPABILITIES);
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED);
  client.setRequestHandler(ElicitRequestSchema, async () => ELICITED);
  return {
    tools: async () => (await client.listTools()).tools.map((x) => x.name),
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined),
    prompt: (name) => client.getPrompt({ name }),
    resources: async () => (await client.listResources()).resources.map((r) => r.uri),
    read: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

/** A 2026-07-28 client (v2 SDK, per request) answering the input_required the platform translates to. */
async function wire2026(): Promise<Wire> {
  const client = await v2Client(url, t.member.token, CAPABILITIES);
  client.setRequestHandler("sampling/createMessage", async () => SAMPLED);
  client.setRequestHandler("elicitation/create", async () => ELICITED);
  return {
    tools: async () => (await client.listTools()).tools.map((x) => x.name),
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined),
    prompt: (name) => client.getPrompt({ name }),
    resources: async () => (await client.listResources()).resources.map((r) => r.uri),
    read: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

const text = (r: unknown) => JSON.stringify((r as { content?: unknown }).content);

for (const [label, connect] of [
  ["a 2025-era client", wire2025],
  ["a 2026-07-28 client", wire2026],
] as const) {
  describe(`server-everything through the gateway, ${label}`, () => {
    it("lists its tools (those for clients that answer sampling and elicitation too) and calls one", async () => {
      const c = await connect();
      try {
        const tools = await c.tools();
        expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation", "trigger-sampling-request", "trigger-elicitation-request"]));
        expect(text(await c.call("get-sum", { a: 2, b: 3 }))).toContain("5");
        expect(text(await c.call("echo", { message: "hello" }))).toContain("hello");
      } finally {
        await c.close();
      }
    });

    it("reads a resource it publishes and gets a prompt", async () => {
      const c = await connect();
      try {
        const uri = (await c.resources()).find((u) => u.startsWith("demo://resource/static/document/"));
        expect(uri).toBeDefined();
        const read = await c.read(uri!);
        expect(read.contents[0].uri).toBe(uri);
        expect(String(read.contents[0].text ?? "")).not.toBe("");
        const prompt = await c.prompt("simple-prompt");
        expect(prompt.messages[0].content).toEqual({ type: "text", text: "This is a simple prompt without arguments." });
      } finally {
        await c.close();
      }
    });

    it("relays its progress to the caller", async () => {
      const c = await connect();
      const progress: number[] = [];
      try {
        const result = await c.call("trigger-long-running-operation", { duration: 1, steps: 2 }, (p) => void progress.push(p.progress));
        expect(text(result)).toContain("Long running operation completed");
        expect(progress).toEqual([1, 2]);
      } finally {
        await c.close();
      }
    });

    it("its sampling and elicitation requests reach the caller and the answers reach its tools", async () => {
      const c = await connect();
      try {
        expect(text(await c.call("trigger-sampling-request", { prompt: "What is 6 x 7?", maxTokens: 10 }))).toContain("sampled: 42");
        expect(text(await c.call("trigger-elicitation-request", {}))).toContain("Ada Lovelace");
      } finally {
        await c.close();
      }
    });
  });
}

/**
 * Issue 25 point 4: field for field, what each client gets from server-everything directly
 * and through /mcp/<serverId> — its tools (annotations, output schemas, _meta), resources,
 * templates and prompts (every page), and results with annotations, images, resource links,
 * embedded resources and structured content. Both sides declare the same capabilities.
 */
describe("server-everything field for field, directly and through the gateway", () => {
  type Listing = { nextCursor?: string } & Record<string, unknown>;
  async function all<T>(list: (cursor?: string) => Promise<Listing>, key: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      items.push(...(page[key] as T[]));
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ["get-annotated-message", { messageType: "error", includeImage: true }],
    ["get-structured-content", { location: "Chicago" }],
    ["get-resource-links", { count: 3 }],
    ["get-tiny-image", {}],
  ];
  async function observe(c: { listTools: () => Promise<Listing>; listResources: (p?: { cursor?: string }) => Promise<Listing>; listResourceTemplates: (p?: { cursor?: string }) => Promise<Listing>; listPrompts: (p?: { cursor?: string }) => Promise<Listing>; callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown> }) {
    const anonymous = (v: unknown) => JSON.parse(JSON.stringify(v), (k, x) => (k === "io.modelcontextprotocol/serverInfo" ? "(the server answering)" : x)) as unknown;
    return anonymous({
      tools: ((await c.listTools()).tools as Array<{ name: string }>).sort((a, b) => a.name.localeCompare(b.name)),
      resources: (await all<{ uri: string }>((cursor) => c.listResources(cursor ? { cursor } : undefined), "resources")).filter((r) => !r.uri.startsWith("anythingmcp:")),
      templates: await all((cursor) => c.listResourceTemplates(cursor ? { cursor } : undefined), "resourceTemplates"),
      prompts: await all((cursor) => c.listPrompts(cursor ? { cursor } : undefined), "prompts"),
      calls: await Promise.all(CALLS.map(([name, args]) => c.callTool({ name, arguments: args }))),
    });
  }

  const withoutServerInfo = (v: unknown) =>
    JSON.parse(JSON.stringify(v), (k, x) => {
      if (k !== "_meta" || !x || typeof x !== "object") return x;
      const { "io.modelcontextprotocol/serverInfo": _info, ...rest } = x as Record<string, unknown>;
      return Object.keys(rest).length > 0 ? rest : undefined;
    }) as unknown;
  // The capabilities the gateway's own upstream connections declare: both sides are offered the same tools.
  const v1 = (u: string, token: string) => v1Client(u, token, RELAYED_CAPABILITIES);
  const v2Legacy = (u: string, token: string) => v2LegacyClient(u, token, RELAYED_CAPABILITIES);
  const v2Modern = (u: string, token: string) => v2Client(u, token, RELAYED_CAPABILITIES);
  // server-everything speaks 2025-era only: a 2026-07-28 client is compared with the v2 client's
  // 2025-era view of it, less `execution` (a field 2026-07-28 deleted).
  for (const [label, openDirect, openThrough, era] of [
    ["the v1 client, 2025-11-25", v1, v1, "2025"],
    ["the v2 client, 2025-11-25", v2Legacy, v2Legacy, "2025"],
    ["the v2 client, 2026-07-28", v2Legacy, v2Modern, "2026"],
  ] as const) {
    it(`${label} gets what it gets directly`, async () => {
      const [direct, through] = await Promise.all([openDirect(everythingUrl, "unused"), openThrough(url, t.member.token)]);
      try {
        const [a, b] = [(await observe(direct as never)) as { tools: Array<Record<string, unknown>> }, await observe(through as never)];
        if (era === "2025") expect(b).toEqual(a);
        // On 2026-07-28 every result names the server answering; the 2025-era view has no such key.
        else expect(withoutServerInfo(b)).toEqual({ ...a, tools: a.tools.map(({ execution: _execution, ...tool }) => tool) });
      } finally {
        await Promise.all([direct.close(), through.close()]);
      }
    }, 60_000);
  }
});
