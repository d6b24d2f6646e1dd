import { randomUUID } from "node:crypto";
import { McpError } from "@modelcontextprotocol/sdk/types";
import { Server as V1Server } from "@modelcontextprotocol/sdk/server";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp";
import { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types";
import { CLIENT_CAPABILITIES_META_KEY, Server as V2Server, ProtocolError, createMcpHandler, inputRequired } from "@modelcontextprotocol/server";
import { z } from "zod";
import { isInitialize, recorded, type RecordedUpstream } from "@/tests/helpers/runtime-upstreams";
import { ListResourcesRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * Upstream MCP servers on 127.0.0.1 whose tools exercise a call in flight (issue 12 points
 * 3–5): progress, log messages, a call that waits to be cancelled, requests for client input
 * (sampling, elicitation, roots) and a JSON-RPC error quoting the credential it was sent.
 * - v1 (`@modelcontextprotocol/sdk`, 2025-era, stateful): input by server-to-client requests;
 * - v2 (`@modelcontextprotocol/server`, 2026-07-28): input by `input_required` results.
 */

/** `rpc_error` throws the JSON-RPC error `code` (default -32021) quoting the Authorization header it received. */
const object = { type: "object" as const, properties: { code: { type: "number" } } };
export const FLIGHT_TOOLS = ["progress", "log", "slow", "sample", "elicit", "roots", "rpc_error"].map((name) => ({ name, inputSchema: object }));

export interface FlightUpstream extends RecordedUpstream {
  /** Calls of `slow` whose cancellation arrived (the upstream's abort signal fired). */
  cancelled: number;
  /** v1: how logging/setLevel is answered — as the SDK does, with a JSON-RPC error, or after 2 s. */
  setLevel?: "answer" | "refuse" | "stall";
}

const LooseResult = z.object({}).passthrough();
const SAMPLE = { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "What is 2+2?" } }], maxTokens: 10 } };
const ELICIT = { method: "elicitation/create", params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } };
const ROOTS = { method: "roots/list", params: {} };
const INPUT: Record<string, { method: string; params: Record<string, unknown> }> = { sample: SAMPLE, elicit: ELICIT, roots: ROOTS };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });
const promptText = (value: unknown) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text: JSON.stringify(value) } }] });

/** Waits for `signal` (at most 10 s) and counts a cancellation. */
async function waitForCancel(state: FlightUpstream, signal: AbortSignal) {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    signal.addEventListener("abort", () => {
      state.cancelled++;
      clearTimeout(timer);
      resolve();
    });
  });
  return text({ waited: true });
}

function newV1Server(state: FlightUpstream): V1Server {
  const server = new V1Server({ name: "v1-flight", version: "1.0.0" }, { capabilities: { tools: {}, logging: {}, prompts: {} } });
  // `fallback` asks for sampling and, refused, answers without it (as a careful upstream does).
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...FLIGHT_TOOLS, ...["fallback", "leak", "cancel_ask"].map((name) => ({ name, inputSchema: object }))] }));
  // `leaky` answers a JSON-RPC error quoting the credential it was sent; `stall` waits 2 s;
  // `elicit` asks the client for a name first (a server-to-client request).
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: "leaky" }, { name: "stall" }, { name: "elicit" }] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const auth = String(extra.requestInfo?.headers.authorization ?? "");
    if (request.params.name === "elicit") return promptText({ answer: await extra.sendRequest(ELICIT as never, LooseResult) });
    if (request.params.name === "stall") await sleep(2000);
    else throw new McpError(-32099, `no prompt for ${auth}`, { echo: auth });
    return { messages: [{ role: "user", content: { type: "text", text: "late" } }] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (name === "progress") {
      const progressToken = extra._meta?.progressToken;
      for (let i = 1; i <= 3; i++) {
        if (progressToken !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: i, total: 3, message: `step ${i}` } });
        await sleep(20);
      }
      return text({ done: true });
    }
    if (name === "log") {
      await extra.sendNotification({ method: "notifications/message", params: { level: "debug", logger: "up", data: "a debug line" } });
      await extra.sendNotification({ method: "notifications/message", params: { level: "error", logger: "up", data: "an error line" } });
      return text({ logged: true });
    }
    if (name === "slow") return waitForCancel(state, extra.signal);
    if (name === "leak") {
      // Progress, a log message and an input request, each quoting the credential it was sent.
      const auth = String(extra.requestInfo?.headers.authorization ?? "");
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: 1, message: `sent ${auth}` } });
      await extra.sendNotification({ method: "notifications/message", params: { level: "error", logger: `up ${auth}`, data: { auth } } });
      const answer = await extra.sendRequest({ ...ELICIT, params: { ...ELICIT.params, message: `Your name? (${auth})` } } as never, LooseResult);
      return text({ answer });
    }
    if (name === "cancel_ask") {
      // Asks for a name, then gives up on it with a free-text reason quoting the credential it was sent.
      const auth = String(extra.requestInfo?.headers.authorization ?? "");
      const giveUp = new AbortController();
      setTimeout(() => giveUp.abort(`gave up (you sent ${auth})`), 300);
      const outcome = await extra.sendRequest(ELICIT as never, LooseResult, { signal: giveUp.signal }).then(
        () => "answered",
        () => "gave up",
      );
      return text({ outcome });
    }
    if (name === "fallback") {
      const sampled = await extra.sendRequest(SAMPLE as never, LooseResult).then(
        (answer) => ({ answer }),
        (e: { code?: number }) => ({ fellBackAfter: e.code }),
      );
      return text(sampled);
    }
    if (name === "rpc_error") {
      const auth = String(extra.requestInfo?.headers.authorization ?? "");
      throw new McpError(Number(request.params.arguments?.code ?? -32021), `needs sampling (you sent ${auth})`, { requiredCapabilities: { sampling: {} }, echo: auth });
    }
    const asked = INPUT[name];
    const result = await extra.sendRequest(asked as never, LooseResult);
    return text({ answer: result });
  });
  return server;
}

/** The resource whose read asks the client for a name first (issue 12 point 4 on resources/read). */
export const ELICITING_RESOURCE = "flight://elicit";
const listedResource = { resources: [{ uri: ELICITING_RESOURCE, name: "elicit", mimeType: "application/json" }] };
const resourceText = (value: unknown) => ({ contents: [{ uri: ELICITING_RESOURCE, mimeType: "application/json", text: JSON.stringify(value) }] });

/** v1: the read asks by a server-to-client request. */
function withElicitingResourceV1(server: V1Server): V1Server {
  server.registerCapabilities({ resources: {} });
  server.setRequestHandler(ListResourcesRequestSchema, () => listedResource);
  server.setRequestHandler(ReadResourceRequestSchema, async (_request, extra) => resourceText({ answer: await extra.sendRequest(ELICIT as never, LooseResult) }));
  return server;
}

/** v2: the read answers input_required first ("InputRequiredResult is universal"). */
function withElicitingResourceV2(server: V2Server): V2Server {
  server.registerCapabilities({ resources: {} });
  server.setRequestHandler("resources/list", () => listedResource);
  server.setRequestHandler("resources/read", (_request, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.elicit;
    if (answer) return resourceText({ answer, requestState: ctx.mcpReq.requestState() });
    return inputRequired({ inputRequests: { elicit: ELICIT as never }, requestState: "upstream-state-resource" }) as never;
  });
  return server;
}

/** The 2025-era upstream (v1 SDK, stateful Streamable HTTP, logging declared). */
export async function startV1FlightUpstream(): Promise<FlightUpstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const state = { cancelled: 0 } as FlightUpstream;
  const base = await recorded(async (req, res, body) => {
    const sid = req.headers["mcp-session-id"] as string | undefined;
    const setLevel = [body].flat().find((m) => (m as { method?: string } | null)?.method === "logging/setLevel") as { id: number } | undefined;
    if (setLevel && state.setLevel && state.setLevel !== "answer") {
      if (state.setLevel === "stall") await sleep(2000);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: setLevel.id, error: { code: -32603, message: "logging is broken here" } }));
      return;
    }
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || !isInitialize(body)) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
      await withElicitingResourceV1(newV1Server(state)).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }, () => sessions.clear());
  return Object.assign(state, base);
}

function newV2Server(state: FlightUpstream, authorization: string): V2Server {
  const server = new V2Server({ name: "v2-flight", version: "1.0.0" }, { capabilities: { tools: {}, logging: {}, prompts: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: [...FLIGHT_TOOLS, { name: "fallback", inputSchema: object }] }));
  // `elicit` answers input_required first ("InputRequiredResult is universal", not only for tools).
  server.setRequestHandler("prompts/list", () => ({ prompts: [{ name: "elicit" }] }));
  server.setRequestHandler("prompts/get", (_request, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.elicit;
    if (answer) return promptText({ answer, requestState: ctx.mcpReq.requestState() });
    return inputRequired({ inputRequests: { elicit: ELICIT as never }, requestState: "upstream-state-prompt" }) as never;
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const name = request.params.name;
    if (name === "progress") {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= 3; i++) {
        if (progressToken !== undefined) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: i, total: 3, message: `step ${i}` } });
        await sleep(20);
      }
      return text({ done: true });
    }
    if (name === "log") {
      await ctx.mcpReq.log("debug", "a debug line", "up");
      await ctx.mcpReq.log("error", "an error line", "up");
      return text({ logged: true });
    }
    if (name === "slow") return waitForCancel(state, ctx.mcpReq.signal);
    if (name === "rpc_error") throw new ProtocolError(Number(request.params.arguments?.code ?? -32021), `needs sampling (you sent ${authorization})`, { requiredCapabilities: { sampling: {} }, echo: authorization });
    const answer = ctx.mcpReq.inputResponses?.[name === "fallback" ? "sample" : name];
    if (answer) return text({ answer });
    // `fallback` asks for sampling only of a caller that declared it, and answers without it otherwise.
    const declared = (request.params._meta as Record<string, { sampling?: unknown } | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
    if (name === "fallback" && !declared?.sampling) return text({ fellBack: "sampling not declared" });
    if (name === "fallback") return inputRequired({ inputRequests: { sample: SAMPLE as never }, requestState: "upstream-state-fallback" });
    return inputRequired({ inputRequests: { [name]: INPUT[name] as never }, requestState: `upstream-state-${name}` });
  });
  return server;
}

/** The 2026-07-28 upstream (v2 SDK), answering input_required for client input. */
export async function startV2FlightUpstream(): Promise<FlightUpstream> {
  const state = { cancelled: 0 } as FlightUpstream;
  const handlerFor = (authorization: string) => createMcpHandler(() => withElicitingResourceV2(newV2Server(state, authorization)), { legacy: "reject" });
  const base = await recorded(async (req, res, body) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) for (const value of [v ?? []].flat()) headers.append(k, value);
    // The request is aborted when its client goes away, as a real HTTP server's is.
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === "POST" ? JSON.stringify(body) : undefined, signal: gone.signal });
    const response = await handlerFor(String(req.headers.authorization ?? "")).fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
    res.end();
  });
  return Object.assign(state, base);
}
