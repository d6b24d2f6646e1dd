import type { Caller } from "@/lib/auth/caller";
import type { CallFlight } from "@/lib/connectors/runtime/call-flight";
import type { ToolCallResult } from "@/lib/connectors/runtime/types";
import type { ResourceCatalog } from "@/lib/resources/resource-catalog";
import type { CallerView, SnapshotConnector, SnapshotTool } from "@/lib/mcp/visibility/snapshot-types";
import type { CompletionRef, PromptSet } from "@/lib/mcp/surface/publish-prompts";
import type { CompleteResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { toolDefinition, withoutApp, type WireTool } from "@/lib/mcp/surface/tool-definition";

/**
 * What one MCP endpoint offers one caller right now: the answer to every request the
 * protocol layer (lib/mcp/serve/protocol/build-server.ts) serves. Per-server, shared and demo endpoints
 * each build one; the protocol layer does not know which it serves.
 */

/** Which endpoint a request came to. */
export type McpEndpoint = { kind: "server"; serverId: string } | { kind: "shared" } | { kind: "demo" };

export function endpointKey(endpoint: McpEndpoint): string {
  return endpoint.kind === "server" ? `server:${endpoint.serverId}` : endpoint.kind;
}

export type { WireTool } from "@/lib/mcp/surface/tool-definition";

export interface ToolSet {
  /** The tools/list answer, in a stable order. */
  readonly list: WireTool[];
  /** Runs the tool published as `name`; null when this caller has no such tool. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal, flight?: CallFlight): Promise<ToolCallResult> | null;
  /** The tools/list entry of the tool `call(name)` runs (its output schema projects the result). */
  definition(name: string): WireTool | undefined;
  /** Equal for equal tool lists: live sessions compare it to decide on tools/list_changed. */
  signature(): string;
}

export interface McpSurface {
  info: { name: string; version: string };
  /** initialize / server/discover instructions (computed on first use). */
  instructions(): string;
  /** Resources, or null where the endpoint publishes none (/mcp, /mcp/demo). */
  resources(): ResourceCatalog | null;
  tools: ToolSet;
  /** The upstream prompts this caller may use (empty where there are none). */
  prompts: PromptSet;
  /** completion/complete, sent to the connector owning the prompt or template; null: no such reference (or no completions). */
  complete(ref: CompletionRef, params: CompleteParams, signal?: AbortSignal): Promise<CompleteResult> | null;
  /** Whether any prompt or template this caller sees comes from an upstream that completes. */
  completions: boolean;
  /** Reads and subscriptions of upstream resources, through this caller's upstream connection. */
  upstreamResources: UpstreamResources;
  /** The org whose configuration version decides when this surface is stale; null: never. */
  watch: { orgId: string; configVersion: number } | null;
}

export interface UpstreamResources {
  /** Whether any visible connector's upstream takes resources/subscribe. */
  subscribe: boolean;
  /** In the caller's `flight`: the upstream may ask for client input while it reads. */
  read(connector: SnapshotConnector, uri: string, signal?: AbortSignal, flight?: CallFlight): Promise<ReadResourceResult>;
  /** Resolves with the unsubscribe. */
  subscribeTo(connector: SnapshotConnector, uri: string, onUpdated: (uri: string) => void): Promise<() => Promise<void>>;
  /** Whether the caller may still reach `connector` at the current configuration (an open subscription's recheck). */
  reaches(connector: SnapshotConnector): Promise<boolean>;
  /** The one connector whose tool returned this caller a resource link to `uri` (lib/connectors/runtime/linked-resources.ts), or null. */
  linkedFrom(uri: string): SnapshotConnector | null;
}

export const NO_UPSTREAM_RESOURCES: UpstreamResources = {
  subscribe: false,
  read: () => Promise.reject(new Error("no upstream resources here")),
  subscribeTo: () => Promise.reject(new Error("no upstream resources here")),
  reaches: () => Promise.resolve(false),
  linkedFrom: () => null,
};

export interface CompleteParams {
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export const SERVER_VERSION = "0.1.0";

/** Memoizes a computation: a part of a published surface is computed when first needed. */
export function lazy<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/** One published tool: its wire name, the snapshot tool, and the view it is called through. */
export interface PublishedTool {
  exposedName: string;
  tool: SnapshotTool;
  view: CallerView;
}

/** A list of tools as published once per (server, access class, version): shared by every caller of the class. */
export interface PublishedTools {
  list: WireTool[];
  /** By published name, and by the connector's own name where that reaches one tool only (`ownNames`). */
  byName: Map<string, { published: PublishedTool; definition: WireTool }>;
  signature: () => string;
}

/**
 * `apps: false` where the endpoint publishes no resources (tool-definition.ts, withoutApp): a
 * tool only its app may call (MCP Apps `_meta.ui.visibility` without "model") has no app there
 * to call it, so it is neither listed nor callable — not offered to the model as a plain tool.
 */
export function publishTools(published: PublishedTool[], { apps = true }: { apps?: boolean } = {}): PublishedTools {
  const tools = apps ? published : published.filter(({ tool }) => !appOnly(tool.meta));
  const list = tools.map(({ exposedName, tool }) => (apps ? toolDefinition(tool, exposedName) : withoutApp(toolDefinition(tool, exposedName))));
  const signature = lazy(() => JSON.stringify(list));
  let bytes: Buffer | null = null;
  serialisedLists.set(list, () => (bytes ??= Buffer.from(signature())));
  const byName = new Map(tools.map((t, i) => [t.exposedName, { published: t, definition: list[i] }]));
  for (const [own, i] of ownNames(tools, byName)) byName.set(own, { published: tools[i], definition: list[i] });
  return { list, byName, signature };
}

/**
 * A renamed tool stays callable by the connector's own name when no published name is that and
 * no other connector of its server has a tool of that name (hidden, or withheld from this caller,
 * alike: the name must never reach another connector's tool than the one its app meant). An MCP
 * App calls its server's tools by the names its upstream gave them (`callServerTool`), and a
 * server's curation must not break it. A hidden tool is not in `tools`, so never reached this way.
 */
function ownNames(tools: PublishedTool[], published: Map<string, unknown>): Array<[string, number]> {
  const owners = new Map<string, number[]>();
  tools.forEach((t, i) => {
    const own = t.tool.name;
    if (own !== t.exposedName && !published.has(own) && !t.view.snapshot.sharedToolNames.has(own)) owners.set(own, [...(owners.get(own) ?? []), i]);
  });
  return [...owners].flatMap(([own, at]) => (at.length === 1 ? [[own, at[0]] as [string, number]] : []));
}

/** MCP Apps: a tool whose `_meta.ui.visibility` lists who may see it, and the model is not among them. */
function appOnly(meta: unknown): boolean {
  const visibility = (meta as { ui?: { visibility?: unknown } } | null)?.ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes("model");
}

/** Each published list's JSON as UTF-8, made once: what tools/list answers are written from (lib/mcp/serve/protocol/serialise-message.ts). */
const serialisedLists = new WeakMap<object, () => Buffer>();

/** The bytes of JSON.stringify(list) when `list` is a published tool list, else undefined. */
export function serialisedList(list: object): Buffer | undefined {
  return serialisedLists.get(list)?.();
}

type RunTool = (input: { caller: Caller; view: CallerView; tool: SnapshotTool; args: Record<string, unknown>; signal?: AbortSignal; flight?: CallFlight }) => Promise<ToolCallResult>;

/**
 * The published tools as one caller's tool set. Calls go to the connector runtime with the
 * view the tool came from; a name this caller was not given is "unknown", whether it is
 * hidden or missing. Costs nothing per tool: the list and the index are the published ones.
 */
export function bindToolSet(caller: Caller, tools: PublishedTools, run: RunTool): ToolSet {
  return {
    list: tools.list,
    call(name, args, signal, flight) {
      const published = tools.byName.get(name)?.published;
      return published ? run({ caller, view: published.view, tool: published.tool, args, signal, flight }) : null;
    },
    definition: (name) => tools.byName.get(name)?.definition,
    signature: tools.signature,
  };
}
