import { ProtocolError, ResourceNotFoundError, Server, type LoggingLevel, type ReadResourceResult, type Tool } from "@modelcontextprotocol/server";
import type { ResourceCatalog } from "@/lib/resources/resource-catalog";
import type { McpSurface, ToolSet } from "@/lib/mcp/surface/surface-types";
import { connectorsStillReached } from "@/lib/mcp/surface/recheck-access";
import type { SnapshotConnector } from "@/lib/mcp/visibility/snapshot-types";
import { flightSignal, serveCallInFlight, type AskClient, type ServedFlight } from "@/lib/mcp/serve/protocol/serve-tool-call";
import { answerToolCall, INVALID_PARAMS, refusal, type ProjectResult } from "@/lib/mcp/serve/protocol/answer-tool-call";
import { withoutUpstreamServerInfo } from "@/lib/connectors/mcp-fields";

/** What a surface offers besides tools and resources: upstream prompts and completions. */
export type GatewayParts = Pick<McpSurface, "prompts" | "complete" | "completions" | "upstreamResources">;

/**
 * The protocol layer: a low-level SDK Server whose handlers answer from precomputed parts.
 * Building one costs a few handler registrations — no per-tool work — which is what lets
 * stateless serving build one per request (notes/mcp-sdk.md, "What stateless serving costs").
 */

export interface ServerParts {
  info: { name: string; version: string };
  /** Sent in initialize / server/discover when not empty. */
  instructions: string;
  /** Null: no resources capability, no resources/* handlers. */
  resources: ResourceCatalog | null;
  /** Read on every request, so a live session can swap its tools when they change. */
  tools: () => ToolSet;
  /** Read on every request, like `tools` (capabilities are declared from the first read). */
  gateway: () => GatewayParts;
  /** Whether this connection can be told about tool list changes. */
  toolsListChanged: boolean;
  /** Whether it is told when its resources change (a session: its tools' apps, lib/mcp/serve/connection-state/session-resources.ts). */
  resourcesListChanged?: boolean;
  /** The 2025-era versions initialize may agree on (2025-era serving only; the SDK's own list otherwise). */
  protocolVersions?: string[];
  /** Stateless 2025-era serving: how a call asks its client for input (sessions use the SDK's own requests). */
  askClient?: AskClient;
}

const INVALID_REQUEST = -32600;

export function buildServer(parts: ServerParts): Server {
  const { resources } = parts;
  const gateway = parts.gateway();
  const hasPrompts = gateway.prompts.list.length > 0;
  const server = new Server(parts.info, {
    capabilities: {
      tools: { listChanged: parts.toolsListChanged },
      // Upstream log messages are relayed during a call (lib/mcp/serve/protocol/serve-tool-call.ts).
      logging: {},
      ...(resources ? { resources: { listChanged: parts.resourcesListChanged ?? false, ...(gateway.upstreamResources.subscribe ? { subscribe: true } : {}) } } : {}),
      ...(hasPrompts ? { prompts: { listChanged: parts.toolsListChanged } } : {}),
      ...(gateway.completions ? { completions: {} } : {}),
    },
    ...(parts.instructions ? { instructions: parts.instructions } : {}),
    ...(parts.protocolVersions ? { supportedProtocolVersions: parts.protocolVersions } : {}),
  });
  server.setRequestHandler("tools/list", () => ({ tools: parts.tools().list as Tool[] }));
  // A 2025-era session's level: forwarded to upstream connections with its next call (lib/connectors/runtime/mcp-tool.ts).
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler("logging/setLevel", (request) => {
    logLevel = request.params.level;
    return {};
  });
  // What a call in flight needs of this connection (tools/call, prompts/get, upstream resources/read).
  const legacyOf = () => ({ clientCapabilities: server.getClientCapabilities(), logLevel, askClient: parts.askClient });
  server.setRequestHandler("tools/call", (request, ctx) => {
    const project: ProjectResult = (result, schema) => server.projectCallToolResult(result, schema);
    return answerToolCall(parts.tools, request.params.name, request.params.arguments ?? {}, ctx, legacyOf(), project);
  });
  if (hasPrompts) servePrompts(server, parts, legacyOf);
  if (gateway.completions) serveCompletions(server, parts);
  if (resources) serveResources(server, resources, parts, legacyOf);
  return server;
}

function serveResources(server: Server, resources: ResourceCatalog, parts: ServerParts, legacy: () => Parameters<typeof serveCallInFlight>[2]): void {
  server.setRequestHandler("resources/list", () => ({ resources: resources.list() }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: resources.templates() }));
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    let upstream = resources.upstreamOf(uri);
    if (!upstream) {
      const found = resources.read(uri);
      if (found) return found as ReadResourceResult;
      // A link one of the caller's upstream tools returned, listed nowhere (lib/connectors/runtime/linked-resources.ts).
      const linking = parts.gateway().upstreamResources.linkedFrom(uri);
      // Not found and not visible are one answer (seed 004). The SDK puts -32602 {uri} on the
      // wire; 2025-era transports restore -32002 (lib/mcp/serve/protocol/legacy-transport.ts).
      if (!linking) throw new ResourceNotFoundError(uri);
      upstream = { connector: linking, uri };
    }
    // An upstream's resource is read through the caller's connection, its contents unchanged,
    // as a call in flight like prompts/get: its upstream may ask for client input while it reads.
    const target = upstream;
    const read = (flight: ServedFlight) => parts.gateway().upstreamResources.read(target.connector, target.uri, flightSignal(flight), flight);
    return withoutUpstreamServerInfo(
      await serveCallInFlight(ctx, read, legacy()).catch((e: unknown) => {
        throw refusal(e);
      }),
    ) as never;
  });
  if (parts.gateway().upstreamResources.subscribe) serveSubscriptions(server, resources, parts);
}

/**
 * resources/subscribe and unsubscribe: forwarded for an upstream's resource, and its
 * `notifications/resources/updated` relayed to this connection while it lives (a stateless
 * request's connection ends with its answer, so only sessions hear updates; a 2026-07-28
 * client subscribes on its listen stream instead, lib/mcp/serve/connection-state/hold-listen-subscriptions.ts). The platform's
 * own and stored resources change only with the configuration: acknowledged, never updated.
 * A subscription lasts while its caller still reaches the connector: a configuration change
 * rechecks it (recheckSubscriptions), so a lost access stops the updates too, not only reads.
 */
/** Resource subscriptions one downstream connection (session) may hold at once. */
export const MAX_SUBSCRIPTIONS = 100;

/** A session's open subscription: its upstream connector and the pending upstream subscription. */
interface ActiveSubscription {
  connector: SnapshotConnector;
  pending: Promise<() => Promise<void>>;
}

/** Each subscribing server's recheck of its open subscriptions (sessions.ts runs it on a configuration change). */
const rechecks = new WeakMap<Server, () => Promise<void>>();

/**
 * Drops the subscriptions of `server` whose connector its caller no longer reaches (removed from
 * the server, no longer granted by the caller's role): their updates stop, and the upstream is
 * unsubscribed when this was its last listener. Those it still reaches are kept.
 */
export async function recheckSubscriptions(server: Server): Promise<void> {
  await rechecks.get(server)?.();
}

function serveSubscriptions(server: Server, resources: ResourceCatalog, parts: ServerParts): void {
  const active = new Map<string, ActiveSubscription>();
  const unsubscribe = (entry: ActiveSubscription) => void entry.pending.then((stop) => stop()).catch(() => undefined);
  server.setRequestHandler("resources/subscribe", async (request) => {
    const { uri } = request.params;
    const upstream = resources.upstreamOf(uri);
    if (!upstream) {
      if (!resources.read(uri)) throw new ResourceNotFoundError(uri);
      return {};
    }
    if (!active.has(uri)) {
      // Each one holds an upstream subscription (or stream) and a listener: bounded per connection.
      if (active.size >= MAX_SUBSCRIPTIONS) throw new ProtocolError(INVALID_REQUEST, `At most ${MAX_SUBSCRIPTIONS} resource subscriptions per connection`, { limit: MAX_SUBSCRIPTIONS });
      const entry: ActiveSubscription = { connector: upstream.connector, pending: Promise.resolve(async () => undefined) };
      // An update that arrives after the subscription was dropped (access lost) is not relayed.
      entry.pending = parts.gateway().upstreamResources.subscribeTo(upstream.connector, upstream.uri, () => {
        if (active.get(uri) === entry) void server.sendResourceUpdated({ uri }).catch(() => undefined);
      });
      active.set(uri, entry);
      entry.pending.catch(() => active.get(uri) === entry && active.delete(uri));
    }
    await active.get(uri)!.pending;
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request) => {
    const entry = active.get(request.params.uri);
    active.delete(request.params.uri);
    if (entry) await (await entry.pending.catch(() => async () => undefined))();
    return {};
  });
  rechecks.set(server, async () => {
    const entries = [...active];
    const connectors = new Map(entries.map(([, entry]) => [entry.connector.id, entry.connector]));
    const reached = await connectorsStillReached([...connectors.values()], (c) => parts.gateway().upstreamResources.reaches(c));
    for (const [uri, entry] of entries) {
      if (reached.get(entry.connector.id) || active.get(uri) !== entry) continue;
      active.delete(uri);
      unsubscribe(entry);
    }
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    for (const entry of active.values()) unsubscribe(entry);
    active.clear();
  };
}

/** prompts/get is served as a call in flight, like tools/call: its upstream may ask for client input. */
function servePrompts(server: Server, parts: ServerParts, legacy: () => Parameters<typeof serveCallInFlight>[2]): void {
  server.setRequestHandler("prompts/list", () => ({ prompts: parts.gateway().prompts.list }));
  server.setRequestHandler("prompts/get", async (request, ctx) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const answer = await serveCallInFlight(ctx, (flight) => parts.gateway().prompts.get(name, args, flightSignal(flight), flight), legacy()).catch((e: unknown) => {
      throw refusal(e);
    });
    // The same answer whether the prompt is hidden from this caller or does not exist.
    if (!answer) throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${name}`);
    return withoutUpstreamServerInfo(answer) as never; // a GetPromptResult, or input_required: the client answers and retries
  });
}

function serveCompletions(server: Server, parts: ServerParts): void {
  server.setRequestHandler("completion/complete", async (request, ctx) => {
    const { ref, argument, context } = request.params;
    const pending = parts.gateway().complete(ref, { argument, ...(context ? { context } : {}) }, ctx.mcpReq.signal);
    // A reference this caller does not see, or whose upstream does not complete: nothing to offer.
    return pending ?? { completion: { values: [], total: 0, hasMore: false } };
  });
}
