import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processState } from "@/lib/process-state";

/**
 * Prometheus metrics of this instance, served at /api/metrics. One registry per process, kept
 * on globalThis because Next.js gives each route bundle its own copy of this module.
 *
 * Labels carry route templates (`/api/v1/orgs/{orgId}`, `/mcp/{serverId}`), never concrete ids
 * or anything a caller sent, so the number of series stays bounded.
 */

interface Metrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  duration: Histogram<"route" | "method" | "status">;
  rateLimitRejections: Counter<"limiter">;
  upstreamCalls: Counter<"kind" | "outcome">;
  hostResourceRequests: Counter<"operation" | "outcome">;
  liveSessions: Gauge;
  redisUp: Gauge;
  /** Where the live-sessions gauge reads its value when scraped (lib/mcp/serve/connection-state/sessions.ts). */
  liveSessionSource?: () => number;
}

const globalForMetrics = processState<{ switchboardMetrics?: Metrics }>();

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const created: Metrics = {
    registry,
    requests: new Counter({
      name: "switchboard_http_requests_total",
      help: "HTTP requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    duration: new Histogram({
      name: "switchboard_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route template, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimitRejections: new Counter({
      name: "switchboard_rate_limit_rejections_total",
      help: "Requests refused by a rate limit, by limiter name",
      labelNames: ["limiter"],
      registers,
    }),
    upstreamCalls: new Counter({
      name: "switchboard_upstream_calls_total",
      help: "Calls to connector upstreams (HTTP APIs, MCP servers), by connector kind and outcome",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    hostResourceRequests: new Counter({
      name: "switchboard_host_resource_requests_total",
      help: "ai.nimblebrain/resources/* requests upstream MCP servers made of this host, by operation (read, list) and outcome (ok, error)",
      labelNames: ["operation", "outcome"],
      registers,
    }),
    liveSessions: new Gauge({
      name: "switchboard_mcp_sessions",
      help: "Live stateful MCP sessions on this instance",
      registers,
      collect() {
        this.set(created.liveSessionSource?.() ?? 0);
      },
    }),
    redisUp: new Gauge({
      name: "switchboard_rate_limit_redis_up",
      help: "1 while the rate-limit Redis answers, 0 while limits fall back to this instance's memory",
      registers,
    }),
  };
  return created;
}

function metrics(): Metrics {
  return (globalForMetrics.switchboardMetrics ??= createMetrics());
}

/** Records one answered request. `route` is the template, e.g. "/api/v1/orgs/{orgId}". */
export function observeRequest(route: string, method: string, status: number, ms: number): void {
  const labels = { route, method: method.toUpperCase(), status: String(status) };
  const m = metrics();
  m.requests.inc(labels);
  m.duration.observe(labels, ms / 1000);
}

/** A request refused by the limiter `limiter` (called by lib/ratelimit/limiter.ts consume). */
export function countRateLimitRejection(limiter: string): void {
  metrics().rateLimitRejections.inc({ limiter });
}

/**
 * One tool call to a connector's upstream and how it ended, as the connector runtime's audit
 * records it: `ok`, `isError` (the tool answered with an error), `error` (the call failed).
 */
export function countUpstreamCall(kind: "http" | "mcp", outcome: "ok" | "isError" | "error"): void {
  metrics().upstreamCalls.inc({ kind, outcome });
}

/** One host-resource request an upstream made of us (ai.nimblebrain/resources/read or /list) and how it ended. */
export function countHostResourcesRequest(operation: "read" | "list", outcome: "ok" | "error"): void {
  metrics().hostResourceRequests.inc({ operation, outcome });
}

/** Tells the live-sessions gauge how to count this instance's stateful MCP sessions (read at scrape time). */
export function trackLiveMcpSessions(count: () => number): void {
  metrics().liveSessionSource = count;
}

/** Whether the rate-limit Redis answers (lib/redis/redis-health.ts). */
export function setRedisUp(up: boolean): void {
  metrics().redisUp.set(up ? 1 : 0);
}

/** The exposition text and its content type, for /api/metrics. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
