import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/server";
import type { Caller } from "@/lib/auth/caller";
import { logger } from "@/lib/log";
import { trackLiveMcpSessions } from "@/lib/ops/metrics";
import { onShutdown } from "@/lib/ops/shutdown";
import { buildServer, recheckSubscriptions, type GatewayParts } from "@/lib/mcp/serve/protocol/build-server";
import { SERVED_LEGACY_VERSIONS } from "@/lib/mcp/serve/http-edge/check-protocol-version";
import { LegacyHttpTransport } from "@/lib/mcp/serve/protocol/legacy-transport";
import { closeWhenBodyEnds } from "@/lib/mcp/serve/protocol/legacy-stateless";
import { mcpConfig } from "@/lib/mcp/serve/mcp-config";
import { reconcileLive, registerSweep } from "@/lib/mcp/serve/connection-state/live-watch";
import { endpointKey, type McpEndpoint, type McpSurface, type ToolSet } from "@/lib/mcp/surface/surface-types";
import { processState } from "@/lib/process-state";

/**
 * Stateful 2025-era sessions (`MCP_STATEFUL_SESSIONS=true`). A session is bound to its
 * endpoint and to the credential that opened it: any other endpoint or credential presenting
 * its id gets 404, exactly like an unknown id, so the client re-initializes. Resources and
 * instructions are frozen when the session is created (seed 004 "Stateful sessions"); tools
 * and prompts reconcile with configuration changes and the client is sent
 * tools/list_changed (prompts/list_changed when it was told of prompts at initialize).
 * Sessions live in this process (globalThis); scale-out needs affinity on Mcp-Session-Id.
 */

export interface SessionOwner {
  endpoint: McpEndpoint;
  /** lib/mcp/serve/http-edge/authenticate-mcp.ts identity, or "anonymous" on /mcp/demo. */
  identity: string;
  caller: Caller | null;
}

interface McpSession extends SessionOwner {
  id: string;
  key: string;
  transport: LegacyHttpTransport;
  server: Server;
  /** Current tools; replaced when the configuration changes. */
  tools: ToolSet;
  /** Current prompts and completions; replaced with the tools. */
  gateway: GatewayParts;
  watch: McpSurface["watch"];
  lastUsed: number;
}

const globalForSessions = processState<{ switchboardMcpSessions?: Map<string, McpSession> }>();
/** Insertion order is recency order: a touched session is moved to the end. */
const sessions = (globalForSessions.switchboardMcpSessions ??= new Map());

/** Number of live sessions in this process (tests, metrics). */
export function liveSessionCount(): number {
  return sessions.size;
}

/**
 * Serves an initialize request without a session id: creates the session's server from
 * `surface` (instructions and resources frozen here) and registers the session once the
 * transport has accepted the initialize.
 */
export async function openSession(request: Request, owner: SessionOwner, surface: McpSurface, maxBodyBytes: number): Promise<Response> {
  const session = { ...owner, key: endpointKey(owner.endpoint), tools: surface.tools, gateway: surface, watch: surface.watch, lastUsed: Date.now() } as unknown as McpSession;
  session.transport = new LegacyHttpTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: maxBodyBytes,
    onsessioninitialized: (id) => register(id, session),
    onsessionclosed: (id) => forget(id),
  });
  session.server = buildServer({
    info: surface.info,
    instructions: surface.instructions(),
    resources: surface.resources(),
    tools: () => session.tools,
    gateway: () => session.gateway,
    toolsListChanged: true,
    protocolVersions: SERVED_LEGACY_VERSIONS,
  });
  session.transport.onclose = () => forget(session.id);
  await session.server.connect(session.transport);
  const response = await session.transport.handleRequest(request);
  // Not an initialize the transport accepted: nothing to keep.
  if (!session.id) return closeWhenBodyEnds(response, () => void closeSession(session));
  return response;
}

/** The live session `id` if it belongs to this endpoint and credential; otherwise null (404). */
export function findSession(id: string, owner: Pick<SessionOwner, "endpoint" | "identity">): McpSession | null {
  const session = sessions.get(id);
  if (!session || session.key !== endpointKey(owner.endpoint) || session.identity !== owner.identity) return null;
  return session;
}

/**
 * Serves a request on a live session after reconciling its tools with the surface resolved
 * for this request (so a change is seen on the very next request, on any instance).
 */
export async function serveInSession(session: McpSession, request: Request, fresh: McpSurface): Promise<Response> {
  touch(session);
  await reconcile(session, fresh);
  return session.transport.handleRequest(request);
}

/** Ends a session whose owner can no longer see its endpoint (the caller was checked by findSession). */
export async function endSession(session: McpSession): Promise<void> {
  await closeSession(session);
}

function register(id: string, session: McpSession): void {
  session.id = id;
  const max = mcpConfig.maxSessions();
  for (const oldest of sessions.values()) {
    if (sessions.size < max) break;
    logger.info({ sessionId: oldest.id }, "MCP session evicted: session cap reached (least recently used)");
    void closeSession(oldest);
  }
  sessions.set(id, session);
  registerSweep("sessions", sweepSessions);
  trackLiveMcpSessions(liveSessionCount);
  // A session's GET stream never ends by itself: close them all when the instance stops.
  onShutdown("mcp-sessions", () => Promise.all([...sessions.values()].map(closeSession)).then(() => undefined));
}

function forget(id: string | undefined): void {
  if (id) sessions.delete(id);
}

function touch(session: McpSession): void {
  session.lastUsed = Date.now();
  sessions.delete(session.id);
  sessions.set(session.id, session);
}

async function closeSession(session: McpSession): Promise<void> {
  forget(session.id);
  await session.transport.close().catch(() => undefined);
  await session.server.close().catch(() => undefined);
}

/**
 * Adopts `fresh` tools if they come from a newer configuration. Only the tools: resources
 * and instructions stay as they were at initialize. Tells the client when the list changed.
 */
async function reconcile(session: McpSession, fresh: McpSurface | null): Promise<void> {
  if (!fresh) {
    // The credential lost the endpoint (server deleted, role or pin changed): end the session.
    await closeSession(session);
    return;
  }
  if (!session.watch || !fresh.watch || fresh.watch.configVersion <= session.watch.configVersion) return;
  const changed = fresh.tools.signature() !== session.tools.signature();
  const promptsChanged = fresh.prompts.signature() !== session.gateway.prompts.signature();
  session.tools = fresh.tools;
  session.gateway = fresh;
  session.watch = fresh.watch;
  // Before the client hears of the change: a subscription to a connector the caller lost is dropped.
  await recheckSubscriptions(session.server);
  if (changed) await session.server.sendToolListChanged().catch(() => undefined);
  // Only a session that declared prompts at initialize may be told its list changed.
  if (promptsChanged && session.server.getCapabilities().prompts) await session.server.sendPromptListChanged().catch(() => undefined);
}

/** Idle eviction, sessions of revoked keys, then a reconcile of every session whose organization changed. */
async function sweepSessions(): Promise<void> {
  const idleBefore = Date.now() - mcpConfig.sessionIdleMs();
  for (const session of [...sessions.values()]) if (session.lastUsed < idleBefore) await closeSession(session);
  await reconcileLive(
    [...sessions.values()].map((session) => ({
      endpoint: session.endpoint,
      caller: session.caller,
      watch: session.watch,
      end: () => closeSession(session),
      adopt: (fresh) => reconcile(session, fresh),
    })),
  );
}
