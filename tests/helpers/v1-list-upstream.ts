import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { Server as V1Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  McpError,
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * A 2025-era upstream built with the v1 SDK (stateful Streamable HTTP) whose tools, prompts
 * and resources tests change at will, telling every session (list_changed), and which sends
 * notifications/resources/updated to the sessions that subscribed to a URI.
 */

export interface ListUpstream {
  url: string;
  tools: string[];
  prompts: string[];
  resources: Array<{ uri: string; text: string }>;
  /** URIs subscribed to, in order (unsubscribes remove them). */
  subscribed: string[];
  /** How many resources/subscribe to refuse next (each refused one counts down). */
  refuseSubscribes: number;
  /** Completion requests received (their `ref`). */
  completions: unknown[];
  /** tools/list requests received (each discovery of the connector sends one). */
  toolLists: number;
  changed(kind: "tools" | "prompts" | "resources"): Promise<void>;
  updated(uri: string): Promise<void>;
  close(): Promise<void>;
}

/** What the upstream says at initialize: the connector's instructions when its admin wrote none. */
export const UPSTREAM_INSTRUCTIONS = "Memo keeps notes. Call lookup before writing one.";

export async function startV1ListUpstream(): Promise<ListUpstream> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: V1Server; subscriptions: Set<string> }>();
  const state: ListUpstream = {
    url: "",
    tools: ["lookup"],
    prompts: ["greet"],
    resources: [{ uri: "memo://note", text: "the note" }],
    subscribed: [],
    refuseSubscribes: 0,
    completions: [],
    toolLists: 0,
    changed: async (kind) => {
      for (const s of sessions.values()) await s.server.notification({ method: `notifications/${kind}/list_changed` }).catch(() => undefined);
    },
    updated: async (uri) => {
      for (const s of sessions.values()) if (s.subscriptions.has(uri)) await s.server.notification({ method: "notifications/resources/updated", params: { uri } });
    },
    close: async () => undefined,
  };
  const newServer = (subscriptions: Set<string>) => {
    const server = new V1Server(
      { name: "v1-list-upstream", version: "1.0.0" },
      { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, completions: {} }, instructions: UPSTREAM_INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => (state.toolLists++, { tools: state.tools.map((name) => ({ name, inputSchema: { type: "object" as const } })) }));
    // `attach` makes a resource on this session only and links to it, listed nowhere (as server-everything's gzip-file-as-resource does).
    const attached = new Set<string>();
    server.setRequestHandler(CallToolRequestSchema, (r) => {
      if (r.params.name !== "attach") return { content: [{ type: "text", text: `called ${r.params.name}` }] };
      const uri = `memo://attached/${attached.size + 1}`;
      attached.add(uri);
      return { content: [{ type: "resource_link", uri, name: "attachment", mimeType: "text/plain" }] };
    });
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: state.prompts.map((name) => ({ name, arguments: [{ name: "who", required: true }] })) }));
    server.setRequestHandler(GetPromptRequestSchema, (r) => ({ messages: [{ role: "user", content: { type: "text", text: `${r.params.name} ${r.params.arguments?.who}` } }] }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: state.resources.map(({ uri }) => ({ uri, name: uri, mimeType: "text/plain" })) }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [{ uriTemplate: "memo://items/{id}", name: "item" }] }));
    server.setRequestHandler(ReadResourceRequestSchema, (r) => {
      if (r.params.uri.startsWith("memo://attached/") && !attached.has(r.params.uri)) throw new McpError(-32002, "Resource not found", { uri: r.params.uri });
      if (attached.has(r.params.uri)) return { contents: [{ uri: r.params.uri, mimeType: "text/plain", text: "made by this session's call" }] };
      const found = state.resources.find((x) => x.uri === r.params.uri);
      const text = found?.text ?? `item ${r.params.uri.split("/").pop()}`;
      return { contents: [{ uri: r.params.uri, mimeType: "text/plain", text }] };
    });
    server.setRequestHandler(SubscribeRequestSchema, (r) => {
      if (state.refuseSubscribes > 0 && state.refuseSubscribes--) throw new McpError(-32603, "subscriptions are down");
      subscriptions.add(r.params.uri);
      state.subscribed.push(r.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (r) => {
      subscriptions.delete(r.params.uri);
      state.subscribed.splice(state.subscribed.indexOf(r.params.uri), 1);
      return {};
    });
    server.setRequestHandler(CompleteRequestSchema, (r) => {
      state.completions.push(r.params.ref);
      return { completion: { values: [`${r.params.argument.value}-done`], total: 1, hasMore: false } };
    });
    return server;
  };
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text ? JSON.parse(text) : undefined;
      const sid = req.headers["mcp-session-id"] as string | undefined;
      let session = sid ? sessions.get(sid) : undefined;
      if (!session) {
        if (sid) return void res.writeHead(404).end();
        const subscriptions = new Set<string>();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, session!) });
        const server = newServer(subscriptions);
        session = { transport, server, subscriptions };
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await server.connect(transport);
      }
      await session.transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(httpServer.address() as net.AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise<void>((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    });
  return state;
}
