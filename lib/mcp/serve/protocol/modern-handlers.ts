import { createMcpHandler, InMemoryServerEventBus, type McpHttpHandler } from "@modelcontextprotocol/server";
import { errorText, logger } from "@/lib/log";
import { onShutdown } from "@/lib/ops/shutdown";
import { buildServer } from "@/lib/mcp/serve/protocol/build-server";
import { writePublishedListsFrom } from "@/lib/mcp/serve/protocol/serialise-message";
import { mcpConfig } from "@/lib/mcp/serve/mcp-config";
import { reconcileLive, registerSweep } from "@/lib/mcp/serve/connection-state/live-watch";
import { listenedResources, listenHolds, releasedWhenClosed, type ListenHolds } from "@/lib/mcp/serve/connection-state/hold-listen-subscriptions";
import type { SessionOwner } from "@/lib/mcp/serve/connection-state/sessions";
import { callScopeOf } from "@/lib/mcp/serve/connection-state/cancel-running-calls";
import { CALL_SCOPE } from "@/lib/mcp/serve/protocol/serve-tool-call";
import { endpointKey, type McpSurface } from "@/lib/mcp/surface/surface-types";
import { processState } from "@/lib/process-state";

/**
 * 2026-07-28 traffic (per-request `_meta`, server/discover, subscriptions/listen) through the
 * SDK's createMcpHandler, strict (`legacy: 'reject'`: 2025-era requests never reach it).
 * One handler per endpoint and credential: its event bus then reaches exactly that
 * credential's `subscriptions/listen` streams, so a tools/list_changed is sent only to
 * callers whose tool list changed and never tells one tenant about another's changes.
 */

interface ModernEntry {
  key: string;
  owner: SessionOwner;
  handler: McpHttpHandler;
  bus: InMemoryServerEventBus;
  /** The tool list listeners last saw, and the configuration it came from. */
  signature: string;
  /** The prompt list listeners last saw. */
  promptSignature: string;
  /** The resource and template lists listeners last saw. */
  resourceSignature: string;
  watch: McpSurface["watch"];
  /** Upstream resource subscriptions held for its listen streams. */
  holds: ListenHolds;
  lastUsed: number;
}

const globalForModern = processState<{ switchboardMcpModern?: Map<string, ModernEntry> }>();
const entries = (globalForModern.switchboardMcpModern ??= new Map());

/** How long a handler without open subscriptions is kept for reuse. */
const IDLE_HANDLER_MS = 5 * 60_000;

const SURFACE = "switchboard.surface";

/** Serves one 2026-era request with the surface resolved for it; `message` is its body already parsed, if read. */
export async function serveModern(request: Request, owner: SessionOwner, surface: McpSurface, maxBodyBytes: number, message?: unknown): Promise<Response> {
  const entry = entryFor(owner, surface, maxBodyBytes);
  entry.lastUsed = Date.now();
  void adopt(entry, surface).catch((e: unknown) => logger.warn({ err: errorText(e) }, "MCP subscriptions: adopting a configuration failed"));
  const response = await entry.handler.fetch(request, {
    // The surface rides to the factory as pass-through auth info (the SDK never reads it).
    authInfo: { token: "", clientId: owner.identity, scopes: [], extra: { [SURFACE]: surface, [CALL_SCOPE]: callScopeOf(owner.endpoint, owner.caller) } },
    ...(message === undefined ? {} : { parsedBody: message }),
  });
  const uris = listenedResources(message);
  return uris.length === 0 ? response : releasedWhenClosed(response, () => entry.holds.hold(surface, uris));
}

function entryFor(owner: SessionOwner, surface: McpSurface, maxBodyBytes: number): ModernEntry {
  const key = `${endpointKey(owner.endpoint)}|${owner.identity}`;
  const existing = entries.get(key);
  if (existing) {
    entries.delete(key);
    entries.set(key, existing); // most recently used last
    return existing;
  }
  evictIdle(mcpConfig.maxSessions() - 1);
  const bus = new InMemoryServerEventBus();
  const handler = createMcpHandler(
    (ctx) => {
      const s = ctx.authInfo?.extra?.[SURFACE] as McpSurface;
      const server = buildServer({ info: s.info, instructions: s.instructions(), resources: s.resources(), tools: () => s.tools, gateway: () => s, toolsListChanged: true, resourcesListChanged: true });
      // tools/list answers written from the published list's bytes (lib/mcp/serve/protocol/serialise-message.ts).
      const connect = server.connect.bind(server);
      server.connect = (transport) => connect(writePublishedListsFrom(transport));
      return server;
    },
    {
      legacy: "reject",
      bus,
      maxRequestBodySize: maxBodyBytes,
      onerror: (e) => logger.debug({ err: e.message }, "MCP 2026-era request refused or failed"),
    },
  );
  const holds = listenHolds((uri) => handler.notify.resourceUpdated(uri));
  const entry: ModernEntry = { key, owner, handler, bus, holds, signature: surface.tools.signature(), promptSignature: surface.prompts.signature(), resourceSignature: resourceSignature(surface), watch: surface.watch, lastUsed: Date.now() };
  entries.set(key, entry);
  registerSweep("modern-subscriptions", sweepSubscriptions);
  // subscriptions/listen streams never end by themselves: close them when the instance stops.
  onShutdown("mcp-subscriptions", () => [...entries.values()].forEach(drop));
  return entry;
}

/**
 * Records a newer configuration's tool and prompt lists and tells open subscriptions of each that
 * changed — after dropping the resource subscriptions whose connector the caller lost.
 */
async function adopt(entry: ModernEntry, fresh: McpSurface): Promise<void> {
  if (!entry.watch || !fresh.watch || fresh.watch.configVersion <= entry.watch.configVersion) return;
  entry.watch = fresh.watch;
  // Without held subscriptions the lists' notifications go out at once, as before.
  if (entry.holds.holding()) await entry.holds.recheck(fresh);
  const resources = resourceSignature(fresh);
  if (resources !== entry.resourceSignature) {
    entry.resourceSignature = resources;
    entry.handler.notify.resourcesChanged();
  }
  const prompts = fresh.prompts.signature();
  if (prompts !== entry.promptSignature) {
    entry.promptSignature = prompts;
    entry.handler.notify.promptsChanged();
  }
  const signature = fresh.tools.signature();
  if (signature === entry.signature) return;
  entry.signature = signature;
  entry.handler.notify.toolsChanged();
}

/** Equal for equal resource and template listings (2026-07-28 resources are per request, so they follow changes). */
function resourceSignature(surface: McpSurface): string {
  const catalog = surface.resources();
  return catalog ? JSON.stringify([catalog.list(), catalog.templates()]) : "";
}

/** Drops handlers with no open subscription: idle ones, then the least recently used above `keep`. */
function evictIdle(keep: number): void {
  const idleBefore = Date.now() - IDLE_HANDLER_MS;
  for (const entry of [...entries.values()]) {
    if (entry.bus.listenerCount > 0) continue;
    if (entry.lastUsed < idleBefore || entries.size > keep) drop(entry);
  }
}

function drop(entry: ModernEntry): void {
  entries.delete(entry.key);
  void entry.handler.close().catch(() => undefined);
}

/** Ends subscriptions of revoked keys; reconciles the others with their organization's changes. */
async function sweepSubscriptions(): Promise<void> {
  evictIdle(mcpConfig.maxSessions());
  const listening = [...entries.values()].filter((e) => e.bus.listenerCount > 0);
  await reconcileLive(
    listening.map((entry) => ({
      endpoint: entry.owner.endpoint,
      caller: entry.owner.caller,
      watch: entry.watch,
      end: () => drop(entry),
      adopt: (fresh) => adopt(entry, fresh),
    })),
  );
}
