import { randomUUID } from "node:crypto";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { isDatabaseUnavailable, noteDatabaseUnavailable } from "@/lib/db/unavailable";
import { errorText, logger } from "@/lib/log";
import { recordRequest } from "@/lib/ops/request-log";
import { traced, traceRequest } from "@/lib/observability/tracing";
import { authenticateMcp, limitDemoClient } from "@/lib/mcp/serve/http-edge/authenticate-mcp";
import { serveLegacyStateless } from "@/lib/mcp/serve/protocol/legacy-stateless";
import { mcpConfig } from "@/lib/mcp/serve/mcp-config";
import { serveModern } from "@/lib/mcp/serve/protocol/modern-handlers";
import {
  bodyTooLargeResponse,
  jsonRpcErrorResponse,
  methodNotAllowedResponse,
  jsonRpcIdOf,
  serverNotFoundResponse,
  sessionNotFoundResponse,
  TRANSPORT_ERROR,
  unavailableResponse,
} from "@/lib/mcp/serve/http-edge/responses";
import { readPostedMessage, refuseUnstorableMessage, refuseUnstorableServerId } from "@/lib/mcp/serve/http-edge/refuse-unstorable-text";
import { refuseBatch, refuseUnservedVersion, SERVED_LEGACY_VERSIONS } from "@/lib/mcp/serve/http-edge/check-protocol-version";
import { preflightResponse, withCors } from "@/lib/mcp/serve/http-edge/cors";
import { untrustedHostOrOrigin } from "@/lib/mcp/serve/http-edge/validate-origin";
import { resolveSurface } from "@/lib/mcp/surface/resolve-surface";
import { AssumedVersions, confirmAssumed, type VersionsSeen } from "@/lib/config-version/read-current-version";
import { readBodyTextOf } from "@/lib/net/node-fetch";
import { directToolCallOf, serveToolCallDirectly, type DirectToolCall } from "@/lib/mcp/serve/protocol/direct-tool-call";
import { callScopeOf, cancelRunningCall, DEMO_IDENTITY } from "@/lib/mcp/serve/connection-state/cancel-running-calls";
import { deliverStatelessAnswer, isStatelessAnswer } from "@/lib/mcp/serve/connection-state/ask-stateless-client";
import { endSession, findSession, openSession, serveInSession, type SessionOwner } from "@/lib/mcp/serve/connection-state/sessions";
import type { McpEndpoint, McpSurface } from "@/lib/mcp/surface/surface-types";

/**
 * The HTTP adapter of every MCP endpoint (the app/mcp route handlers only call this). In
 * order, before any protocol work: Host/Origin (403), credential from the Authorization
 * header only (401 with WWW-Authenticate), the credential's or client address's rate budget
 * (429 + Retry-After), body size (413), a protocol version not served or a batch on a version
 * without batches (400), text the database cannot store (400), then what the endpoint offers
 * this caller (404 when nothing, the same for a missing server and one the caller may not
 * see). A CORS preflight is answered first (lib/mcp/serve/http-edge/cors.ts), and every answer to an
 * allowed cross-origin page carries its CORS headers. The request then
 * goes to the 2026-era handler or to 2025-era serving, stateless or in a session.
 */
export function serveMcp(request: Request, endpoint: McpEndpoint): Promise<Response> {
  return traceRequest(request, ROUTES[endpoint.kind], () => serveAndRecord(request, endpoint));
}

async function serveAndRecord(request: Request, endpoint: McpEndpoint): Promise<Response> {
  const started = performance.now();
  let response: Response;
  try {
    response = await serve(request, endpoint);
  } catch (e) {
    // The SDK answers protocol errors itself; what throws here is nearly always the database
    // (authentication, the caller's view): "try again soon", never a hang or a crash. An outage
    // is logged once per interval, as on the API path, not once per request (9,305 lines in 25 s).
    if (isDatabaseUnavailable(e)) noteDatabaseUnavailable(e);
    else logger.error({ err: errorText(e), endpoint: endpoint.kind }, "MCP request failed");
    response = unavailableResponse();
  }
  response = withCors(request, response); // a 503 too: a browser client must be able to read it
  // Streams are logged when their answer starts: the status is known, the duration is time to first byte.
  recordRequest({ route: ROUTES[endpoint.kind], method: request.method, status: response.status, durationMs: performance.now() - started, requestId: requestIdOf(request) });
  return response;
}

/** Route templates for logs and metrics: never a concrete server id. */
const ROUTES: Record<McpEndpoint["kind"], string> = { server: "/mcp/{serverId}", shared: "/mcp", demo: "/mcp/demo" };

function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

const METHODS = new Set(["GET", "POST", "DELETE"]);

/**
 * `again`: the request is served a second time because a version it assumed had moved; its
 * versions are then read, never assumed, and its rate budget, spent the first time, is not spent
 * again. The first time, a request the instance's own server read whole that names tools/call
 * assumes the versions this process read last (AssumedVersions,
 * lib/config-version/read-current-version.ts): a plain stateless tools/call then has them
 * confirmed by its audit row's insert, one round trip instead of two; any other request reads
 * them again before it does anything, and is served again, from the start, when one had moved.
 */
async function serve(request: Request, endpoint: McpEndpoint, again = false): Promise<Response> {
  if (request.method.toUpperCase() === "OPTIONS") return preflightResponse(request);
  if (!METHODS.has(request.method.toUpperCase())) return methodNotAllowedResponse();
  const refused = untrustedHostOrOrigin(request.headers);
  if (refused) return jsonRpcErrorResponse(403, TRANSPORT_ERROR, refused);
  const badId = refuseUnstorableServerId(endpoint);
  if (badId) return badId;

  // The configuration versions this request reads: authentication's read serves the view's too.
  const seen: VersionsSeen = !again && mayAssumeVersions(request) ? new AssumedVersions() : new Map();
  const owner = await traced("authenticate", () => identify(request, endpoint, seen, again));
  // A 401 comes from the database's answer about the key, never from an assumed version.
  if (owner instanceof Response) return owner;

  const maxBodyBytes = mcpConfig.maxBodyBytes();
  const tooLarge = Number(request.headers.get("content-length") ?? 0) > maxBodyBytes;
  const message = tooLarge ? undefined : await readPostedMessage(request, maxBodyBytes);
  const badMessage = tooLarge ? bodyTooLargeResponse(maxBodyBytes) : (refuseUnservedVersion(request.headers, message) ?? refuseUnstorableMessage(message) ?? refuseBatch(message, request.headers));
  // A refusal too is sent only on versions read (a revoked key gets its 401, not a 400).
  if (badMessage) return (await confirmAssumed(seen)) ? badMessage : serve(request, endpoint, true);

  // The message read above goes on to the SDK with the request (its `parsedBody`), so the body
  // is read and parsed once, not again by the classification and again by the transport.
  const legacy = await isLegacyRequest(request, message, { maxRequestBodySize: maxBodyBytes });
  const direct = legacy ? directToolCall(request, message, owner) : null;
  if (!direct && !(await confirmAssumed(seen))) return serve(request, endpoint, true);
  // Confirmed (or nothing assumed): what this request still reads, it reads.
  const versions = seen instanceof AssumedVersions && !direct ? new Map(seen) : seen;

  // Stateless serving answers a call and its cancellation on different server instances. A
  // session's cancellation is its own server's (the SDK matches the id within the session):
  // it must not reach a stateless call of the same credential that happens to share the id.
  const cancelled = cancelledRequestId(message);
  if (cancelled !== undefined && !request.headers.get("mcp-session-id")) await cancelRunningCall(owner.identity, callScopeOf(owner.endpoint, owner.caller), cancelled);
  // A client's answer to a request a stateless call sent it: routed by its id, whatever instance asked.
  if (isStatelessAnswer(message) && !request.headers.get("mcp-session-id")) {
    await deliverStatelessAnswer(owner.identity, message);
    return new Response(null, { status: 202 });
  }

  const surface = await traced("visibility", () => resolveSurface(endpoint, owner.caller, versions));
  if (!surface) {
    if (direct && !(await confirmAssumed(versions))) return serve(request, endpoint, true);
    return nothingHere(request, owner, jsonRpcIdOf(message));
  }
  if (direct) {
    const answer = await serveToolCallDirectly(request, message, direct, () => surface.tools, owner.identity, callScopeOf(owner.endpoint, owner.caller), versions instanceof AssumedVersions ? versions : undefined);
    return answer ?? serve(request, endpoint, true);
  }
  if (!legacy) return serveModern(request, owner, surface, maxBodyBytes, message);
  return serveLegacy(request, owner, surface, maxBodyBytes, message);
}

/** A body the node adapter read whole that may hold a stateless tools/call (a cheap look; directToolCall decides). */
function mayAssumeVersions(request: Request): boolean {
  return isStatelessPost(request) && !!readBodyTextOf(request)?.includes('"tools/call"');
}

/** Served without a session: stateless serving, and no session named. */
function isStatelessPost(request: Request): boolean {
  return !mcpConfig.statefulSessions() && !request.headers.get("mcp-session-id");
}

/** The stateless 2025-era tools/call served without the SDK (direct-tool-call.ts), or null. */
function directToolCall(request: Request, message: unknown, owner: SessionOwner): DirectToolCall | null {
  return isStatelessPost(request) && owner.identity ? directToolCallOf(request, message) : null;
}

/** `budgetSpent`: this request already spent its unit of the rate budget (it is served again). */
async function identify(request: Request, endpoint: McpEndpoint, seen: VersionsSeen, budgetSpent: boolean): Promise<SessionOwner | Response> {
  if (endpoint.kind === "demo") {
    // Anonymous by design: an Authorization header is ignored, the client address is limited.
    const limited = budgetSpent ? null : await limitDemoClient(request.headers);
    return limited ?? { endpoint, identity: DEMO_IDENTITY, caller: null };
  }
  const principal = await authenticateMcp(request.headers, request.url, endpoint, { seen, budgetSpent });
  return principal instanceof Response ? principal : { endpoint, ...principal };
}

async function serveLegacy(request: Request, owner: SessionOwner, surface: McpSurface, maxBodyBytes: number, message: unknown): Promise<Response> {
  if (!mcpConfig.statefulSessions()) {
    const parts = {
      info: surface.info,
      instructions: surface.instructions(),
      resources: surface.resources(),
      tools: () => surface.tools,
      gateway: () => surface,
      toolsListChanged: false,
      protocolVersions: SERVED_LEGACY_VERSIONS,
    };
    return serveLegacyStateless(request, parts, maxBodyBytes, message, owner.identity, callScopeOf(owner.endpoint, owner.caller));
  }
  const sessionId = request.headers.get("mcp-session-id");
  if (!sessionId) return openSession(request, owner, surface, maxBodyBytes);
  const session = findSession(sessionId, owner);
  // Unknown, ended, evicted, or another endpoint's or credential's: the same 404.
  return session ? serveInSession(session, request, surface) : sessionNotFoundResponse();
}

/** The request id a `notifications/cancelled` names, if `message` is one. */
function cancelledRequestId(message: unknown): unknown {
  const m = message as { method?: unknown; params?: { requestId?: unknown } } | null;
  return m && typeof m === "object" && m.method === "notifications/cancelled" ? m.params?.requestId : undefined;
}

/** The endpoint offers this caller nothing: end its session there, if any, and say 404. */
async function nothingHere(request: Request, owner: SessionOwner, id: string | number | null): Promise<Response> {
  const sessionId = request.headers.get("mcp-session-id");
  const session = sessionId ? findSession(sessionId, owner) : null;
  if (session) await endSession(session);
  if (owner.endpoint.kind === "shared" && owner.caller?.kind === "instance") {
    return jsonRpcErrorResponse(404, TRANSPORT_ERROR, "The shared endpoint /mcp serves the MCP servers of a user API key's workspace; the instance credential belongs to no workspace. Use /mcp/<serverId>.", { id });
  }
  return serverNotFoundResponse(id);
}
