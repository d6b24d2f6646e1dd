import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { bearerToken } from "@/lib/auth/resolve-bearer";
import { renderMetrics } from "@/lib/ops/metrics";
import { checkReadiness } from "@/lib/ops/readiness";
import { recordRequest } from "@/lib/ops/request-log";
import { setting } from "@/lib/config/settings";

/**
 * HTTP adapters of the operations endpoints (the app/api/{health,ready,metrics} routes are one
 * line each). None of them needs a session or an API key; /api/metrics takes METRICS_TOKEN as a
 * bearer token when that variable is set.
 */

const NO_STORE = { "cache-control": "no-store" };

/** GET /api/health — liveness: the process answers HTTP. Touches no dependency. */
export async function healthResponse(): Promise<Response> {
  return json(200, { status: "ok" });
}

/** GET /api/ready — 200 when the database (and Redis, when configured) answer, else 503 naming the part that is down. */
export async function readyResponse(request: Request): Promise<Response> {
  const started = performance.now();
  const { ready, checks } = await checkReadiness();
  const response = json(ready ? 200 : 503, { status: ready ? "ready" : "unavailable", checks });
  observe("/api/ready", request, response, started);
  return response;
}

/** GET /api/metrics — Prometheus text exposition of this instance. */
export async function metricsResponse(request: Request): Promise<Response> {
  if (!metricsAccessAllowed(request.headers.get("authorization"))) {
    return new Response(JSON.stringify({ error: "A valid METRICS_TOKEN bearer token is required." }), {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": 'Bearer realm="metrics"', ...NO_STORE },
    });
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { status: 200, headers: { "content-type": contentType, ...NO_STORE } });
}

/** Open when METRICS_TOKEN is unset; otherwise only `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). */
export function metricsAccessAllowed(authorization: string | null): boolean {
  const expected = setting("METRICS_TOKEN");
  if (!expected) return true;
  const given = bearerToken(authorization);
  if (!given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...NO_STORE } });
}

function observe(route: string, request: Request, response: Response, started: number): void {
  const requestId = request.headers.get("x-request-id") ?? randomUUID();
  recordRequest({ route, method: request.method, status: response.status, durationMs: performance.now() - started, requestId });
}
