/**
 * Every process-wide cache, pool, timer and registry of lib/, by name: what it holds, why it is
 * process-wide, and how a test starts from a clean one. A module declares its state through
 * `processState<{ name?: Type }>()` instead of casting `globalThis` itself, and a name missing
 * here does not compile (tests/unit/process-state.test.ts also fails when `globalThis` is used
 * anywhere else in lib/).
 *
 * Why globalThis at all: Next.js gives each route bundle, and a reload in development, its own
 * copy of a module, and scripts/serve.ts loads a few modules outside the bundle; state kept in a
 * module's own variables would exist once per copy (two pools, two session tables, a limiter
 * whose budget is counted twice). On globalThis it exists once per process. Nothing here is
 * shared between instances: that is what PostgreSQL and Redis are for.
 *
 * This file imports nothing, so the modules scripts/serve.ts loads outside the bundle
 * (lib/net/socket-address.ts, lib/mcp/serve/node-adapter/node-handler-slot.ts) may use it
 * without pulling a second copy of lib/ in with them.
 */

export interface ProcessStateEntry {
  kind: "cache" | "pool" | "timer" | "registry" | "buffer" | "flag";
  /** The module that declares and owns it. */
  module: string;
  /** What it holds. */
  holds: string;
  /** Why one per process (beyond "one copy across Next.js bundles", true of all). */
  why: string;
  /** How a test gets a clean one. */
  reset: string;
}

/** The default: vitest runs each test file in a process of its own (`pool: "forks"`), so every entry starts empty. */
const FRESH_PER_FILE = "a new process per test file";

export const PROCESS_STATE = {
  // Database
  switchboardDb: { kind: "pool", module: "lib/db/client.ts", holds: "the Prisma client (and its pg pool)", why: "one connection pool per process, bounded by DB_POOL_MAX", reset: "tests disconnect it and delete the key (postgres-outage, first-run) or put a client of their own in it" },
  switchboardDbPools: { kind: "registry", module: "lib/db/client.ts", holds: "the pg pool under each Prisma client db() made", why: "raw SQL and shutdown reach the pool of the client in use", reset: FRESH_PER_FILE },
  switchboardDbDownLoggedAt: { kind: "flag", module: "lib/db/unavailable.ts", holds: "when a database outage was last logged", why: "an outage is logged once per interval for the whole process, not per request", reset: "deleted by postgres-outage.test.ts between cases" },
  switchboardDatabaseAnswered: { kind: "flag", module: "lib/ops/readiness.ts", holds: "whether the database has answered a probe once", why: "the first probe of a starting process may wait longer", reset: FRESH_PER_FILE },
  // Redis
  switchboardRedis: { kind: "pool", module: "lib/redis/redis-connections.ts", holds: "the command and subscriber Redis connections", why: "two connections per process, whatever the number of callers", reset: FRESH_PER_FILE },
  switchboardRedisHealth: { kind: "timer", module: "lib/redis/redis-health.ts", holds: "whether Redis is up and when to probe it next", why: "one probe schedule for every path that falls back to memory", reset: FRESH_PER_FILE },
  switchboardPubSub: { kind: "registry", module: "lib/redis/pubsub.ts", holds: "local subscribers per channel and the channels subscribed in Redis", why: "one Redis subscription per channel, fanned out in memory", reset: FRESH_PER_FILE },
  // Limits, auth and OAuth
  switchboardLimiters: { kind: "registry", module: "lib/ratelimit/limiter.ts", holds: "the rate limiters by name", why: "a budget counted once per process (in memory without Redis)", reset: FRESH_PER_FILE },
  switchboardAnnouncedMemoryLimiter: { kind: "flag", module: "lib/ratelimit/limiter.ts", holds: "whether the in-memory fallback was logged", why: "logged once per process", reset: FRESH_PER_FILE },
  switchboardResolvedKeys: { kind: "cache", module: "lib/auth/resolve-bearer.ts", holds: "API keys resolved from their hash (LRU)", why: "a key is looked up once, not on every request; revocation bumps what it is checked against", reset: FRESH_PER_FILE },
  switchboardResolvedGrants: { kind: "cache", module: "lib/oauth/resolve-grant.ts", holds: "OAuth grants resolved for access tokens (LRU)", why: "as API keys: a grant is read once, then checked against its live state", reset: FRESH_PER_FILE },
  switchboardCimdFreshUntil: { kind: "cache", module: "lib/oauth/client-metadata-document.ts", holds: "until when each fetched client metadata document may be used (LRU)", why: "a document is fetched once per lifetime, not per authorization", reset: FRESH_PER_FILE },
  switchboardOauth: { kind: "registry", module: "lib/oauth/authorization-server.ts", holds: "the authorization server per issuer origin (a few at most)", why: "built once per issuer; they share one database", reset: FRESH_PER_FILE },
  // Configuration versions and visibility
  switchboardBumpedOrgs: { kind: "registry", module: "lib/config-version/config-version.ts", holds: "the AsyncLocalStorage of organizations bumped by the running work", why: "every copy of the module must see the same async context", reset: FRESH_PER_FILE },
  switchboardVersionReads: { kind: "buffer", module: "lib/config-version/read-current-version.ts", holds: "the batch of version reads waiting for one query", why: "concurrent requests share one read", reset: FRESH_PER_FILE },
  switchboardLastReadVersions: { kind: "cache", module: "lib/config-version/read-current-version.ts", holds: "each organization's configuration version as this process last read it (LRU)", why: "a stateless tools/call assumes it and has its audit insert check it, instead of reading it first", reset: FRESH_PER_FILE },
  switchboardSnapshotCache: { kind: "cache", module: "lib/mcp/visibility/load-snapshot.ts", holds: "server snapshots by server and configuration version (LRU)", why: "a snapshot is loaded once per configuration version", reset: FRESH_PER_FILE },
  switchboardPersonalCatalogs: { kind: "cache", module: "lib/mcp/visibility/personal-catalog.ts", holds: "per_user connectors' upstream catalogs listed with each person's own connection (LRU, one minute)", why: "a person's resources and prompts are listed once a minute, not per request", reset: FRESH_PER_FILE },
  switchboardPersonalViews: { kind: "cache", module: "lib/mcp/visibility/personal-catalog.ts", holds: "each person's view of a server with their own per_user catalogs (LRU)", why: "the same view object while nothing changed, so what it publishes is computed once", reset: FRESH_PER_FILE },
  switchboardViewCaches: { kind: "cache", module: "lib/mcp/visibility/resolve-view.ts", holds: "callers' views by caller, by class and by workspace, and each server's organization (LRU)", why: "a view is built once per configuration version", reset: FRESH_PER_FILE },
  // Connectors
  switchboardUpstreamPool: { kind: "pool", module: "lib/connectors/runtime/default-pool.ts", holds: "the connections to upstream MCP servers", why: "a connection per connector and caller is reused across requests", reset: FRESH_PER_FILE },
  switchboardHttpToolAgents: { kind: "pool", module: "lib/connectors/runtime/http-exchange.ts", holds: "the keep-alive http and https agents of HTTP tools", why: "sockets to an HTTP tool's host are reused across calls", reset: FRESH_PER_FILE },
  switchboardConnectorSecrets: { kind: "cache", module: "lib/connectors/runtime/connector-secrets.ts", holds: "decrypted connector headers by connector and configuration version (LRU)", why: "decrypted once per version; kept in this process's memory only", reset: FRESH_PER_FILE },
  switchboardResourceLinks: { kind: "cache", module: "lib/connectors/runtime/linked-resources.ts", holds: "the resource_link URIs upstream tools returned, per connection owner (LRU, an hour)", why: "a link is read back through the pooled upstream connection that made it, which lives in this process", reset: FRESH_PER_FILE },
  switchboardRediscovery: { kind: "timer", module: "lib/connectors/rediscover-connector.ts", holds: "the pending re-discovery of each connector", why: "one re-discovery per burst of list_changed, whatever bundle heard it", reset: FRESH_PER_FILE },
  // Connectors' upstream authentication (lib/connectors/upstream-auth)
  switchboardClientCredentialTokens: { kind: "cache", module: "lib/connectors/upstream-auth/client-credentials.ts", holds: "client_credentials access tokens per connector (at most 5,000, least recently used first out), until shortly before they expire", why: "one token request per connector and expiry, not per call", reset: FRESH_PER_FILE },
  switchboardClientCredentialFetches: { kind: "registry", module: "lib/connectors/upstream-auth/client-credentials.ts", holds: "the client_credentials token request in flight per connector", why: "concurrent calls (the first ones, all at expiry) share one token request", reset: FRESH_PER_FILE },
  switchboardConnectorAuth: { kind: "cache", module: "lib/connectors/upstream-auth/credential.ts", holds: "connectors' auth settings (no secret in clear) by connector and config version", why: "the call path reads them on every upstream call", reset: FRESH_PER_FILE },
  switchboardUpstreamTokens: { kind: "cache", module: "lib/connectors/upstream-auth/token-cache.ts", holds: "opened upstream access tokens per connection, until they expire", why: "a token is decrypted once, not per call", reset: FRESH_PER_FILE },
  switchboardRefreshing: { kind: "registry", module: "lib/connectors/upstream-auth/tokens.ts", holds: "the refresh in flight per connection", why: "concurrent calls of one process share one refresh (a row lock serialises instances)", reset: FRESH_PER_FILE },
  // Audit, usage, files, operations
  switchboardToolCallWrites: { kind: "buffer", module: "lib/audit/write-call-rows.ts", holds: "audit rows waiting to be written in one statement", why: "concurrent calls' rows are grouped into one insert", reset: FRESH_PER_FILE },
  switchboardPendingCallEndings: { kind: "registry", module: "lib/audit/write-call-rows.ts", holds: "the audit endings of calls in flight submitted and not yet committed", why: "a graceful stop and this instance's audit reads wait for them, whatever bundle submitted them", reset: FRESH_PER_FILE },
  switchboardAuditPrune: { kind: "timer", module: "lib/audit/prune-audit-events.ts", holds: "the audit retention timer and its running pass", why: "one prune schedule per process", reset: "stopped by the shutdown hooks; otherwise a new process per test file" },
  switchboardUsage: { kind: "buffer", module: "lib/usage/usage-buffer.ts", holds: "usage counts and connector health waiting to be flushed", why: "counted in memory, written once per interval", reset: "flushed by the shutdown hooks; otherwise a new process per test file" },
  switchboardBlobStores: { kind: "registry", module: "lib/files/blob-store.ts", holds: "the blob store (local or S3) by configuration", why: "one client per store", reset: FRESH_PER_FILE },
  switchboardBlobWorker: { kind: "timer", module: "lib/files/run-blob-worker.ts", holds: "the blob worker's timer and running pass", why: "one worker per process", reset: "stopped by the shutdown hooks; otherwise a new process per test file" },
  switchboardTracing: { kind: "flag", module: "lib/observability/tracing.ts", holds: "whether the OpenTelemetry SDK runs", why: "every bundle's hooks skip tracing at once when it is off", reset: FRESH_PER_FILE },
  switchboardTraceSdk: { kind: "registry", module: "lib/observability/start-tracing.ts", holds: "the started OpenTelemetry SDK and its span processor", why: "started once per process, flushed by whoever asks", reset: FRESH_PER_FILE },
  switchboardMetrics: { kind: "registry", module: "lib/ops/metrics.ts", holds: "the Prometheus registry and its metrics", why: "one /metrics answer counts every bundle's requests", reset: FRESH_PER_FILE },
  switchboardShutdown: { kind: "registry", module: "lib/ops/shutdown.ts", holds: "the hooks run when the process stops", why: "one SIGTERM runs every bundle's hooks once", reset: FRESH_PER_FILE },
  switchboardStampsSocketAddress: { kind: "flag", module: "lib/net/socket-address.ts", holds: "whether node:http requests are stamped with their socket address", why: "patched once per process, inside or outside the bundle", reset: FRESH_PER_FILE },
  switchboardReadBodies: { kind: "cache", module: "lib/net/node-fetch.ts", holds: "request bodies already read, by Request (WeakMap)", why: "a body read by the node adapter is not read again by a route", reset: "held weakly: gone with its request" },
  // MCP serving (lib/mcp/serve): per-connection state, the protocol's handlers, the Node adapter
  switchboardMcpSessions: { kind: "registry", module: "lib/mcp/serve/connection-state/sessions.ts", holds: "live stateful 2025-era sessions (MCP_STATEFUL_SESSIONS)", why: "a session lives in the process that opened it (scale-out needs affinity)", reset: "closed by the shutdown hooks; otherwise a new process per test file" },
  switchboardStatelessAsks: { kind: "registry", module: "lib/mcp/serve/connection-state/ask-stateless-client.ts", holds: "stateless calls' client requests waiting for their answers", why: "an answer may arrive on any request (through Redis from any instance)", reset: FRESH_PER_FILE },
  switchboardRunningCalls: { kind: "registry", module: "lib/mcp/serve/connection-state/cancel-running-calls.ts", holds: "the abort controllers of running stateless calls", why: "a notifications/cancelled may arrive on any request (through Redis from any instance)", reset: FRESH_PER_FILE },
  switchboardMcpWatch: { kind: "timer", module: "lib/mcp/serve/connection-state/live-watch.ts", holds: "the sweeps of live sessions and listen streams, their timer and config-change subscription", why: "one timer reconciles every live connection of the process", reset: "stopLiveWatch(); otherwise a new process per test file" },
  switchboardMcpModern: { kind: "registry", module: "lib/mcp/serve/protocol/modern-handlers.ts", holds: "2026-07-28 handlers per endpoint and credential, with their listen holds", why: "a handler and its listen streams are reused across requests", reset: "closed by the shutdown hooks; otherwise a new process per test file" },
  switchboardParkedCalls: { kind: "registry", module: "lib/mcp/serve/protocol/serve-tool-call.ts", holds: "2026-07-28 calls held for their client's input, by requestState", why: "the retry carrying the answers must find the call", reset: "each expires after UPSTREAM_CALL_TIMEOUT_MS; otherwise a new process per test file" },
  switchboardOpenAsks: { kind: "registry", module: "lib/mcp/serve/protocol/serve-tool-call.ts", holds: "input requests not yet answered, across held calls", why: "what a held call still keeps alive (tests read heldCalls())", reset: FRESH_PER_FILE },
  switchboardDirectToolCalls: { kind: "registry", module: "lib/mcp/serve/protocol/direct-tool-call.ts", holds: "how many tools/call this process answered without the SDK's per-request Server", why: "tests tell which path answered a call, whichever bundle copy served it", reset: FRESH_PER_FILE },
  switchboardSseSinks: { kind: "registry", module: "lib/mcp/serve/node-adapter/node-sse-sink.ts", holds: "the SSE sink of each request served by the node:http server (WeakMap) and a count", why: "serve-node offers a sink that the protocol layer, in the bundle, takes", reset: "held weakly: gone with its request" },
  switchboardNodeMcp: { kind: "registry", module: "lib/mcp/serve/node-adapter/node-handler-slot.ts", holds: "the MCP handler the bundle registers for scripts/serve.ts", why: "the bridge between the Next.js bundle and the server outside it", reset: FRESH_PER_FILE },
} as const satisfies Record<string, ProcessStateEntry>;

export type ProcessStateName = keyof typeof PROCESS_STATE;

/**
 * The holder of the process-wide state named by `T`'s keys (each `name?: Type`): use it as
 * the module used `globalThis` before — `holder.name ??= new Map()` — so each bundle's copy of
 * the module finds the same value. A key not listed in PROCESS_STATE does not compile.
 */
export function processState<T extends { [K in keyof T]: K extends ProcessStateName ? unknown : never }>(): T {
  return globalThis as unknown as T;
}
